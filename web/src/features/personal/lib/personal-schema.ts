// The personal form's zod schema (the app's one form pattern, lib/form.ts),
// built from personal-rules.ts rather than written again: those rules share
// their cases with the server (personal-cases.json), so a second copy in zod
// would be a third set of rules to keep in step.
//
// A loose object with a plain check function, not z.custom or superRefine:
// zod/mini is shared with /login, and every zod function used anywhere lands
// in the chunk /login loads (z.custom + superRefine cost /login 0.3 kB gzip,
// this 0.07). Loose, so the form's values pass through unchanged.
import { z } from 'zod/mini';
import { validatePersonal, type PersonalRules, type PersonalValues } from './personal-rules';

/** "licenses.0.number" as a zod path: ['licenses', 0, 'number']. */
const pathOf = (field: string) => field.split('.').map((k) => (/^\d+$/.test(k) ? Number(k) : k));

export function personalSchema(rules: PersonalRules): z.ZodMiniType<PersonalValues, PersonalValues> {
  const schema = z.looseObject({}).check((ctx) => {
    const values = ctx.value as PersonalValues;
    for (const [field, message] of Object.entries(validatePersonal(values, rules))) {
      ctx.issues.push({ code: 'custom', message, path: pathOf(field), input: values });
    }
  });
  // The values are the form's own (PersonalValues); the loose object only carries the check.
  return schema as unknown as z.ZodMiniType<PersonalValues, PersonalValues>;
}
