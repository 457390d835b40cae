// A date typed in separate day, month and year boxes (GOV.UK's date input),
// kept in the form as the API writes it: "yyyy-mm-dd", or "yyyy-mm" for a
// month. A part not yet typed stays empty in that string ("1990--27"), so the
// rules can say which part is missing rather than only "not a date".
import '@/lib/date-messages';
import { t } from './i18n';

export type DateKind = 'date' | 'month';
export type DatePart = 'day' | 'month' | 'year';
export type DateTexts = Record<DatePart, string>;

export const partsOf = (kind: DateKind): DatePart[] => (kind === 'date' ? ['day', 'month', 'year'] : ['month', 'year']);

/** Each box's label, and its name in a message ("must include a month"). */
export const PART_LABELS = { day: 'date.day', month: 'date.month', year: 'date.year' } as const;
const PART_NAMES = { day: 'date.part.day', month: 'date.part.month', year: 'date.part.year' } as const;

const pad = (text: string) => (/^\d$/.test(text) ? `0${text}` : text);

/** The boxes' texts as the form's value: '' when every box is empty. */
export function joinDate(texts: DateTexts, kind: DateKind): string {
  const trimmed = { day: texts.day.trim(), month: texts.month.trim(), year: texts.year.trim() };
  if (partsOf(kind).every((p) => !trimmed[p])) return '';
  const ym = `${trimmed.year}-${pad(trimmed.month)}`;
  return kind === 'date' ? `${ym}-${pad(trimmed.day)}` : ym;
}

/** The form's value as the boxes' texts (a value of another shape goes whole into the year box, to be seen and fixed). */
export function splitDate(value: string, kind: DateKind): DateTexts {
  const texts = { day: '', month: '', year: '' };
  if (!value) return texts;
  const parts = value.split('-');
  if (parts.length !== (kind === 'date' ? 3 : 2)) return { ...texts, year: value };
  return { year: parts[0], month: parts[1], day: kind === 'date' ? parts[2] : '' };
}

const RANGE: Record<DatePart, RegExp> = {
  day: /^(0?[1-9]|[12]\d|3[01])$/,
  month: /^(0?[1-9]|1[0-2])$/,
  year: /^\d{4}$/,
};

export type DateProblem = {
  /** The parts to mark: the missing ones, or the ones that cannot be right; every part for a date that does not exist. */
  parts: DatePart[];
  /** "Date of birth must include a month", "... must be a real date". */
  message: string;
};

/** "Date of birth must include a month": what the boxes leave out, if they leave out some but not all. */
function missingParts(value: string, kind: DateKind, label: string): DateProblem | null {
  // Only what the boxes write ("1990--27"): a value of another shape is for the page's own message.
  if (!value || value.split('-').length !== partsOf(kind).length) return null;
  const texts = splitDate(value, kind);
  const missing = partsOf(kind).filter((p) => !texts[p].trim());
  if (!missing.length) return null;
  const names = missing.map((p) => t(PART_NAMES[p]));
  const list =
    names.length > 1 ? t('date.and', { a: names.slice(0, -1).join(', '), b: names[names.length - 1] }) : names[0];
  return { parts: missing, message: t('date.mustInclude', { label, parts: list }) };
}

/** The message of a part left out, for a page whose other date messages are its own (and the server's). */
export const missingPartsMessage = (value: string, kind: DateKind, label: string) =>
  missingParts(value, kind, label)?.message;

/**
 * What is wrong with the typed parts themselves, before any rule of the page (in the past, after
 * another date): null when the value is empty or a real date. GOV.UK's messages, with the page's
 * name for the date ("Date of birth").
 */
export function dateProblem(value: string, kind: DateKind, label: string): DateProblem | null {
  if (!value) return null;
  const missing = missingParts(value, kind, label);
  if (missing) return missing;
  const texts = splitDate(value, kind);
  const parts = partsOf(kind);
  const wrong = parts.filter((p) => !RANGE[p].test(texts[p].trim()));
  if (wrong.length) return { parts: wrong, message: t('date.notReal', { label }) };
  const [y, m, d] = [Number(texts.year), Number(texts.month), kind === 'date' ? Number(texts.day) : 1];
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return { parts, message: t('date.notReal', { label }) };
  return null;
}

/** The parts a shown error marks: the ones at fault, or all of them when the whole date is (in the future, say). */
export function partsInError(value: string, kind: DateKind): DatePart[] {
  return dateProblem(value, kind, '')?.parts ?? partsOf(kind);
}
