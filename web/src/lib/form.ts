// The one form pattern of the app (shown on the /ui page):
//   1. a zod schema per form (zod/mini: the login route carries it),
//   2. useAppForm(schema): react-hook-form with that schema, messages shown
//      once a field has been touched (mode 'onTouched'),
//   3. on a refused save, applyServerErrors (lib/form-errors.ts) puts the
//      server's errorFields onto the fields, focuses the first, and returns the
//      messages that belong to no field for an Alert or ErrorSummary.
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type FieldValues, type Resolver, type UseFormProps } from 'react-hook-form';
import type { $ZodType } from 'zod/v4/core';

/** A zod or zod/mini schema whose input is the form's values. */
type Schema<T extends FieldValues> = $ZodType<unknown, T>;

export function useAppForm<T extends FieldValues>(
  schema: Schema<T>,
  options: Omit<UseFormProps<T>, 'resolver' | 'mode'> = {},
) {
  return useForm<T>({
    ...options,
    // Messages appear only once a field has been touched (spec section 5), then follow every change.
    mode: 'onTouched',
    resolver: zodResolver(schema) as unknown as Resolver<T>,
  });
}

export { applyServerErrors, type ServerErrors } from './form-errors';
