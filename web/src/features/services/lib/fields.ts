// The fields of one page: every service of the page's alias merged (docs/api.md,
// GET /api/v2/user/service): deduplicated by api, the lowest rank wins, sorted by rank.
import type { FieldDefinition, ServiceEntry, SubjectService } from '@/lib/subject';
import { isVisible } from './rules';

export function fieldsOfAlias(services: SubjectService[], alias: string): FieldDefinition[] {
  const byApi = new Map<string, FieldDefinition>();
  for (const { service } of services.filter((s) => s.alias === alias)) {
    for (const field of service.fields) {
      const seen = byApi.get(field.api);
      if (!seen || field.rank < seen.rank) byApi.set(field.api, field);
    }
  }
  // Ties by api, as the server orders them, so the order is the same everywhere.
  return [...byApi.values()].sort((a, b) => a.rank - b.rank || (a.api < b.api ? -1 : a.api > b.api ? 1 : 0));
}

/** A new entry: unticked checkboxes and empty strings. */
export function blankEntry(fields: FieldDefinition[]): ServiceEntry {
  return Object.fromEntries(fields.map((f) => [f.api, f.type === 'checkbox' ? false : '']));
}

/** A saved entry as the form holds it: every field present, of its type. */
export function entryForForm(fields: FieldDefinition[], saved: ServiceEntry): ServiceEntry {
  const entry: ServiceEntry = saved.id ? { id: saved.id } : {};
  for (const f of fields) {
    const value = saved[f.api];
    entry[f.api] = f.type === 'checkbox' ? value === true : typeof value === 'string' ? value : '';
  }
  return entry;
}

/** An entry as it is sent: its id, the values of the fields it shows (a hidden field's value is dropped). */
export function entryForSave(fields: FieldDefinition[], entry: ServiceEntry): ServiceEntry {
  const out: ServiceEntry = entry.id ? { id: entry.id } : {};
  for (const f of fields) {
    if (!isVisible(f, entry)) continue;
    const value = entry[f.api];
    out[f.api] = f.type === 'checkbox' ? value === true : typeof value === 'string' ? value.trim() : '';
  }
  return out;
}

/** The value that names an entry in its legend ("Employer 1: Acme"): the first text field's. */
export function entryName(fields: FieldDefinition[], entry: ServiceEntry | undefined): string {
  const first = fields.find((f) => f.type === 'text');
  const value = first && entry ? entry[first.api] : undefined;
  return typeof value === 'string' ? value.trim() : '';
}
