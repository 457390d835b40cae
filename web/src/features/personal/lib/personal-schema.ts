// The personal form's zod schema (the app's one form pattern, lib/form.ts),
// built from personal-rules.ts rather than written again: those rules share
// their cases with the server (personal-cases.json), so a second copy in zod
// would be a third set of rules to keep in step.
import { z } from 'zod/mini';
import { validatePersonal, type PersonalRules, type PersonalValues } from './personal-rules';

/** "licenses.0.number" as a zod path: ['licenses', 0, 'number']. */
const pathOf = (field: string) => field.split('.').map((k) => (/^\d+$/.test(k) ? Number(k) : k));

export function personalSchema(rules: PersonalRules) {
  return z.custom<PersonalValues>().check(
    z.superRefine((values, ctx) => {
      for (const [field, message] of Object.entries(validatePersonal(values, rules))) {
        ctx.addIssue({ code: 'custom', message, path: pathOf(field), input: values });
      }
    }),
  );
}
