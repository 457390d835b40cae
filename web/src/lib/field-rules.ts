// The field rules of docs/api.md ("Field rules"), evaluated exactly as the
// server's internal/portal/rules.go does: both run the shared cases of
// internal/portal/testdata/rule-cases.json.
import type { FieldDefinition, FieldValue, Rule } from '@/lib/subject';

export type EntryValues = Record<string, FieldValue | undefined | null>;

/**
 * Whether the entry's value equals `want`: a missing value is "" against a string and false
 * against a boolean; strings compare trimmed and case-sensitive; a boolean equals only the same boolean.
 */
function equals(value: FieldValue | undefined | null, want: FieldValue): boolean {
  if (typeof want === 'boolean') {
    if (value === undefined || value === null) return want === false;
    return value === want;
  }
  if (typeof value === 'boolean') return false;
  return (value ?? '').trim() === want.trim();
}

/** A non-blank string or true. */
export function isFilled(value: FieldValue | undefined | null): boolean {
  return typeof value === 'boolean' ? value : (value ?? '').trim() !== '';
}

export function evaluateRule(rule: Rule, values: EntryValues): boolean {
  if ('all' in rule) return rule.all.every((r) => evaluateRule(r, values));
  if ('any' in rule) return rule.any.some((r) => evaluateRule(r, values));
  if ('not' in rule) return !evaluateRule(rule.not, values);
  const value = values[rule.field];
  if ('equals' in rule) return equals(value, rule.equals);
  if ('notEquals' in rule) return !equals(value, rule.notEquals);
  if ('in' in rule) return rule.in.some((want) => equals(value, want));
  if ('filled' in rule) return isFilled(value) === rule.filled;
  return false;
}

export function isVisible(field: Pick<FieldDefinition, 'visibleWhen'>, values: EntryValues): boolean {
  return field.visibleWhen === null || field.visibleWhen === undefined || evaluateRule(field.visibleWhen, values);
}

/** Hidden fields are never required. */
export function isRequired(
  field: Pick<FieldDefinition, 'visibleWhen' | 'requiredFlag' | 'requiredWhen'>,
  values: EntryValues,
): boolean {
  if (!isVisible(field, values)) return false;
  return field.requiredFlag || (field.requiredWhen ? evaluateRule(field.requiredWhen, values) : false);
}
