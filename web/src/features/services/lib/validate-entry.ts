// The checks of one entry (docs/api.md, "Field rules" and its messages), the
// same as the server's full validation on POST /api/v2/user/profile: both run
// the shared cases of internal/portal/testdata/entry-cases.json.
import '@/features/services/lib/messages';
import { t } from '@/lib/i18n';
import type { FieldDefinition } from '@/lib/subject';
import { isFilled, isRequired, isVisible, type EntryValues } from './rules';

export type EntryChecks = {
  /** Today as "YYYY-MM-DD" (the applicant's calendar day). */
  today: string;
  /** The codes a state or country field may take (the lookups); a reference without a list is not checked. */
  references?: Partial<Record<string, string[]>>;
};

const DEFAULT_MAX = 200;
const TEXTAREA_MAX = 2000;
// Email and phone fields without a format of their own: whole-value patterns valid in RE2 and JS.
const EMAIL = '[^\\s@]+@[^\\s@]+\\.[^\\s@]+';
const PHONE = '\\+?[0-9][0-9 ().-]{5,18}[0-9]';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH = /^(\d{4})-(\d{2})$/;

function isRealDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

function isRealMonth(value: string): boolean {
  const m = MONTH.exec(value);
  return Boolean(m) && Number(m![2]) >= 1 && Number(m![2]) <= 12;
}

const isWellFormed = (type: string, value: string) => (type === 'date' ? isRealDate(value) : isRealMonth(value));

export function maxLengthOf(field: Pick<FieldDefinition, 'type' | 'maxLength'>): number {
  return field.maxLength && field.maxLength > 0
    ? field.maxLength
    : field.type === 'textarea'
      ? TEXTAREA_MAX
      : DEFAULT_MAX;
}

function matchesWhole(pattern: string, value: string): boolean {
  try {
    return new RegExp(`^(?:${pattern})$`).test(value);
  } catch {
    // A pattern the browser cannot read is the server's to judge.
    return true;
  }
}

/** The message of one field, or '' when it passes. */
function checkField(
  field: FieldDefinition,
  fields: FieldDefinition[],
  entry: EntryValues,
  checks: EntryChecks,
): string {
  const label = field.name;
  const raw = entry[field.api];
  if (!isFilled(raw)) return isRequired(field, entry) ? t('services.error.required', { label }) : '';
  if (field.type === 'checkbox') return '';
  const value = typeof raw === 'string' ? raw.trim() : String(raw);

  switch (field.type) {
    case 'date':
    case 'month': {
      if (!isWellFormed(field.type, value)) return t('services.error.invalidDate', { label });
      const today = field.type === 'date' ? checks.today : checks.today.slice(0, 7);
      if (field.notFuture && value > today) return t('services.error.future', { label });
      if (field.after) {
        const other = fields.find((f) => f.api === field.after);
        const otherValue = entry[field.after];
        if (
          other &&
          isVisible(other, entry) &&
          typeof otherValue === 'string' &&
          isWellFormed(field.type, otherValue.trim()) &&
          value < otherValue.trim()
        ) {
          return t('services.error.before', { label, other: other.name });
        }
      }
      return '';
    }
    case 'select':
    case 'radio':
      return field.options.some((o) => o.value === value) ? '' : t('services.error.choose', { label });
    case 'state':
    case 'country': {
      const codes = checks.references?.[field.reference || (field.type === 'state' ? 'states' : 'countries')];
      return !codes || codes.includes(value) ? '' : t('services.error.choose', { label });
    }
    default: {
      const max = maxLengthOf(field);
      if ([...value].length > max) return t('services.error.tooLong', { label, n: max });
      const pattern = field.format || (field.type === 'email' ? EMAIL : field.type === 'phone' ? PHONE : '');
      if (pattern && !matchesWhole(pattern, value)) return t('services.error.invalid', { label });
      return '';
    }
  }
}

/** The messages of an entry by field api; hidden fields are never checked. */
export function validateEntry(
  fields: FieldDefinition[],
  entry: EntryValues,
  checks: EntryChecks,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of fields) {
    if (!isVisible(field, entry)) continue;
    const message = checkField(field, fields, entry, checks);
    if (message) errors[field.api] = message;
  }
  return errors;
}
