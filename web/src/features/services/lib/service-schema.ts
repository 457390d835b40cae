// The service form's schema (the app's one form pattern, lib/form.ts), built
// from validate-entry.ts, whose checks share their cases with the server.
import { z } from 'zod/mini';
import type { FieldDefinition, ServiceEntry } from '@/lib/subject';
import { validateEntry, type EntryChecks } from './validate-entry';

export type ServiceFormValues = { noData: boolean; entries: ServiceEntry[] };

export function serviceSchema(
  fields: FieldDefinition[],
  checks: EntryChecks,
): z.ZodMiniType<ServiceFormValues, ServiceFormValues> {
  const schema = z.looseObject({}).check((ctx) => {
    const values = ctx.value as ServiceFormValues;
    // Nothing to report: the entries are kept in the form but not sent, so not checked.
    if (values.noData) return;
    values.entries.forEach((entry, i) => {
      for (const [api, message] of Object.entries(validateEntry(fields, entry, checks))) {
        ctx.issues.push({ code: 'custom', message, path: ['entries', i, api], input: values });
      }
    });
  });
  return schema as unknown as z.ZodMiniType<ServiceFormValues, ServiceFormValues>;
}
