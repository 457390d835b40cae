// The web form of a PDF form: its values (keyed f0, f1… by field position, since
// PDF field names may hold dots, which react-hook-form reads as nesting), the
// checks of the app's one form pattern (lib/form.ts), and the values by PDF
// field name for fillPdf.
import '@/features/pdf-forms/lib/messages';
import { z } from 'zod/mini';
import { missingPartsMessage } from '@/lib/date-parts';
import { t } from '@/lib/i18n';
import type { PdfFieldDescriptor, PdfFieldValue } from './pdf-fields';

export type PdfFormValues = Record<string, PdfFieldValue>;

export const keyOf = (index: number) => `f${index}`;

export function initialValues(fields: PdfFieldDescriptor[]): PdfFormValues {
  return Object.fromEntries(fields.map((field, i) => [keyOf(i), field.value]));
}

export function valuesByName(fields: PdfFieldDescriptor[], values: PdfFormValues): Record<string, PdfFieldValue> {
  return Object.fromEntries(fields.map((field, i) => [field.name, values[keyOf(i)] ?? field.value]));
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isRealDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return y >= 1900 && date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

// What Helvetica can write into a PDF (WinAnsi: Latin-1 and Windows-1252's extras). pdf-lib refuses
// anything else when it draws the answers, so the field says so instead of the submit failing.
const CP1252_EXTRAS = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';

/** The characters of `text` the form's font cannot write, each once. */
export function unwritable(text: string): string[] {
  const bad = [...text].filter((ch) => {
    const code = ch.codePointAt(0)!;
    return !(
      (code >= 0x20 && code <= 0x7e) ||
      (code >= 0xa0 && code <= 0xff) ||
      ch === '\n' ||
      CP1252_EXTRAS.includes(ch)
    );
  });
  return [...new Set(bad)];
}

/** The message of one field's value, or undefined when it is fine. */
export function checkField(field: PdfFieldDescriptor, value: PdfFieldValue | undefined): string | undefined {
  const label = field.label;
  if (field.kind === 'checkbox') return field.required && value !== true ? t('forms.error.tick') : undefined;
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) {
    if (!field.required) return undefined;
    return field.kind === 'radio' || field.kind === 'dropdown'
      ? t('forms.error.choose', { label })
      : t('forms.error.required', { label });
  }
  if (field.kind === 'date' && !isRealDate(text))
    return missingPartsMessage(text, 'date', label) ?? t('forms.error.invalidDate', { label });
  const bad =
    typeof value === 'string' ? unwritable(field.kind === 'multiline' ? value.replace(/\r/g, '') : value) : [];
  if (bad.length) return t('forms.error.characters', { label, characters: bad.join(' ') });
  if (field.maxLength && typeof value === 'string' && value.length > field.maxLength) {
    return t('forms.error.tooLong', { label, n: field.maxLength });
  }
  return undefined;
}

export function pdfFormSchema(fields: PdfFieldDescriptor[]): z.ZodMiniType<PdfFormValues, PdfFormValues> {
  const schema = z.looseObject({}).check((ctx) => {
    const values = ctx.value as PdfFormValues;
    fields.forEach((field, i) => {
      const message = checkField(field, values[keyOf(i)]);
      if (message) ctx.issues.push({ code: 'custom', message, path: [keyOf(i)], input: values });
    });
  });
  return schema as unknown as z.ZodMiniType<PdfFormValues, PdfFormValues>;
}
