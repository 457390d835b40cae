// An entry of a service page as the form holds it, as it is sent, and as it is named.
import type { FieldDefinition, ServiceEntry } from '@/lib/subject';
import { isVisible } from '@/lib/field-rules';

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
