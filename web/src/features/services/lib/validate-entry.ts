// The checks of one entry (docs/api.md, "Field rules" and its messages), the
// same as the server's full validation on POST /api/v2/user/profile: both run
// the shared cases of internal/portal/testdata/entry-cases.json.
import '@/features/services/lib/messages';
import { missingPartsMessage } from '@/lib/date-parts';
import { t } from '@/lib/i18n';
import type { FieldDefinition } from '@/lib/subject';
import { isRequired, isVisible, type EntryValues } from '@/lib/field-rules';
import { EMAIL_PATTERN } from '@/lib/email';

export type EntryChecks = {
  /** Today as "YYYY-MM-DD" (the applicant's calendar day). */
  today: string;
  /** The codes a state or country field may take, by reference ("states", "countries"): the lookups. */
  references?: Partial<Record<string, string[]>>;
};

const DEFAULT_MAX = 200;
const TEXTAREA_MAX = 2000;
// Email and phone fields without a format of their own: whole-value patterns valid in RE2 and JS.
const PHONE = '\\+?[0-9 ().-]{7,20}';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH = /^(\d{4})-(\d{2})$/;

// As the server (portal.EarliestYear): earlier years are typing mistakes, and
// Date.UTC would read years below 100 as 19xx.
const EARLIEST_YEAR = 1900;

function isRealDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < EARLIEST_YEAR) return false;
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

function isRealMonth(value: string): boolean {
  const m = MONTH.exec(value);
  return Boolean(m) && Number(m![1]) >= EARLIEST_YEAR && Number(m![2]) >= 1 && Number(m![2]) <= 12;
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
    // As on the server: a broken pattern refuses values rather than letting them through unchecked.
    return false;
  }
}

/** The value as the field's type holds it (a trimmed string, or a checkbox's boolean); null when of the wrong JSON type. */
function valueOf(field: Pick<FieldDefinition, 'type'>, raw: unknown): string | boolean | null {
  if (raw === undefined || raw === null) return field.type === 'checkbox' ? false : '';
  if (field.type === 'checkbox') return typeof raw === 'boolean' ? raw : null;
  return typeof raw === 'string' ? raw.trim() : null;
}

const isTemporal = (type: string, value: string) => (type === 'date' || type === 'month') && isWellFormed(type, value);

/** The message of one field, or '' when it passes: the first check that fails, in the server's order. */
function checkField(
  field: FieldDefinition,
  fields: FieldDefinition[],
  entry: EntryValues,
  checks: EntryChecks,
): string {
  const label = field.name;
  const value = valueOf(field, entry[field.api]);
  if (value === null) return t('services.error.invalid', { label });
  if (value === false || value === '') return isRequired(field, entry) ? t('services.error.required', { label }) : '';
  if (typeof value === 'boolean') return '';

  const max = maxLengthOf(field);
  if ([...value].length > max) return t('services.error.tooLong', { label, n: max });

  switch (field.type) {
    case 'date':
    case 'month': {
      if (!isWellFormed(field.type, value))
        return missingPartsMessage(value, field.type, label) ?? t('services.error.invalidDate', { label });
      if (field.notFuture && value > checks.today.slice(0, value.length)) return t('services.error.future', { label });
      const other = field.after ? fields.find((f) => f.api === field.after) : undefined;
      if (other && isVisible(other, entry)) {
        const otherValue = valueOf(other, entry[other.api]);
        if (typeof otherValue === 'string' && isTemporal(other.type, otherValue)) {
          // A month against a date compares the part they share.
          const n = Math.min(value.length, otherValue.length);
          if (value.slice(0, n) < otherValue.slice(0, n))
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
      const codes = field.reference ? checks.references?.[field.reference] : undefined;
      if (codes) return codes.includes(value) ? '' : t('services.error.choose', { label });
      // A reference without a list: the field's own options, if it has any.
      return field.options.length === 0 || field.options.some((o) => o.value === value)
        ? ''
        : t('services.error.choose', { label });
    }
    default: {
      const pattern = field.format || (field.type === 'email' ? EMAIL_PATTERN : field.type === 'phone' ? PHONE : '');
      return pattern && !matchesWhole(pattern, value) ? t('services.error.invalid', { label }) : '';
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
