// Kept out of lib/form.ts: /login loads that module and has no list to add rows to.
import type { FieldValues, UseFormReturn } from 'react-hook-form';

/**
 * The message a field shows: once it was touched or a submit was tried, or when the server set it.
 * After Add or Remove in a list (useFieldArray), react-hook-form checks the whole list in onTouched
 * mode; the fields nobody reached yet must stay quiet until they are (spec section 5).
 */
export function shownError<T extends FieldValues>(
  form: Pick<UseFormReturn<T>, 'getFieldState' | 'formState'>,
  name: string,
): string | undefined {
  const { error, isTouched } = form.getFieldState(name as Parameters<typeof form.getFieldState>[0], form.formState);
  if (!error?.message) return undefined;
  return isTouched || form.formState.submitCount > 0 || error.type === 'server' ? error.message : undefined;
}
