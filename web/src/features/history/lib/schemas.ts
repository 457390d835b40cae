// The forms' zod schemas (the app's one form pattern, lib/form.ts), built on
// the rules modules rather than written again in zod: those rules mirror the
// server's, message for message, and a second copy would drift.
import { z } from 'zod/mini';
import { validateAddresses, type AddressContext, type AddressValues } from './address-rules';
import { validateAliases, type AliasContext, type AliasValues } from './alias-rules';

/** "aliases.0.firstName" as a zod path: ['aliases', 0, 'firstName']. */
const pathOf = (field: string) => field.split('.').map((k) => (/^\d+$/.test(k) ? Number(k) : k));

function schemaOf<T>(validate: (values: T) => Record<string, string>): z.ZodMiniType<T, T> {
  const schema = z.looseObject({}).check((ctx) => {
    const values = ctx.value as T;
    for (const [field, message] of Object.entries(validate(values))) {
      ctx.issues.push({ code: 'custom', message, path: pathOf(field), input: values });
    }
  });
  // Loose, so the form's values pass through unchanged; the object only carries the check.
  return schema as unknown as z.ZodMiniType<T, T>;
}

export const aliasSchema = (ctx: AliasContext) => schemaOf<AliasValues>((v) => validateAliases(v, ctx));
/** The address history's rules; `draft` says at each check whether it is a "Save for later". */
export const addressSchema = (ctx: AddressContext, draft: () => boolean) =>
  schemaOf<AddressValues>((v) => validateAddresses(v, { ...ctx, draft: draft() }));
