// A row added to a list after a save was tried starts quiet: the form checks the whole list again
// on Add (react-hook-form, after a submit), but an empty new block is not the applicant's mistake.
// Its fields speak once touched, or at the next save.
import { useRef } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { shownError } from '@/lib/shown-error';

export function useQuietNewRows<T extends FieldValues>(form: Pick<UseFormReturn<T>, 'getFieldState' | 'formState'>) {
  /** The submit count when each row (by its field-array key) was first shown. */
  const shownAt = useRef<Record<string, number>>({});
  /** The message the field `name` of the row `key` shows. */
  return function errorOf(key: string, name: string): string | undefined {
    const { submitCount } = form.formState;
    const since = (shownAt.current[key] ??= submitCount);
    const { isTouched } = form.getFieldState(name as Parameters<typeof form.getFieldState>[0], form.formState);
    return submitCount > since || isTouched ? shownError(form, name) : undefined;
  };
}
