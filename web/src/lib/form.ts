// The one form pattern of the app (shown on the /ui page):
//   1. a zod schema per form (zod/mini is lighter; /login loads its schema lazily),
//   2. useAppForm(schema): react-hook-form with that schema, messages shown
//      once a field has been touched (mode 'onTouched'),
//   3. useFailedSave(form) (lib/failed-save.ts) for what a failed save shows:
//      the fields the client's rules refused, or the server's errorFields put
//      onto the fields (applyServerErrors, lib/form-errors.ts), in one
//      ErrorSummary that links to them.
import { useForm, type FieldErrors, type FieldValues, type Resolver, type UseFormProps } from 'react-hook-form';
import type { ZodMiniType } from 'zod/mini';
import type { $ZodType } from 'zod/v4/core';

/** A zod or zod/mini schema whose input is the form's values (both have safeParseAsync). */
type Schema<T extends FieldValues> = $ZodType<unknown, T> & Pick<ZodMiniType<unknown, T>, 'safeParseAsync'>;
/**
 * The schema, or a function that loads it: a page whose first load must stay
 * small (/login) loads its schema, and zod with it, when the visitor acts.
 */
export type SchemaSource<T extends FieldValues> = Schema<T> | (() => Promise<Schema<T>>);

/**
 * The schema as react-hook-form's resolver: the first message of each field,
 * nested along the field's path. Written here rather than taken from
 * @hookform/resolvers, whose zod 3 and 4 support cost /login 0.9 kB gzip.
 */
export function zodResolver<T extends FieldValues>(source: SchemaSource<T>): Resolver<T> {
  return async (values) => {
    const schema = typeof source === 'function' ? await source() : source;
    const result = await schema.safeParseAsync(values);
    if (result.success) return { values: result.data as T, errors: {} };
    const errors: Record<string, unknown> = {};
    for (const issue of result.error.issues) {
      const path = issue.path.length ? issue.path.map(String) : ['root'];
      let node = errors;
      for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
      node[path[path.length - 1]] ??= { type: issue.code, message: issue.message };
    }
    return { values: {}, errors: errors as FieldErrors<T> };
  };
}

export function useAppForm<T extends FieldValues>(
  schema: SchemaSource<T>,
  options: Omit<UseFormProps<T>, 'resolver' | 'mode'> = {},
) {
  return useForm<T>({
    ...options,
    // Messages appear only once a field has been touched (spec section 5), then follow every change.
    mode: 'onTouched',
    resolver: zodResolver(schema),
  });
}
