// Puts the server's field errors (422 "validation error" with errorFields)
// back onto the form's fields, as coder's mapApiErrorToFieldErrors does.
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError, errorMessageOf } from './api-client';

/**
 * Sets each errorField that names one of `fields` on the form; returns the
 * messages that belong to no field (to show above the form).
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): string[] {
  if (!(error instanceof ApiError)) return [errorMessageOf(error)];
  const rest: string[] = [];
  for (const { field, message } of error.errorFields) {
    if ((fields as readonly string[]).includes(field)) {
      setError(field as Path<T>, { type: 'server', message });
    } else {
      rest.push(message);
    }
  }
  if (error.errorFields.length === 0) rest.push(error.errorMessage);
  return rest;
}
