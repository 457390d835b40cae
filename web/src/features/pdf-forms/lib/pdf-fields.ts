// Reads a fillable PDF form's fields (AcroForm, with pdf-lib) into plain
// descriptors the web form is drawn from, and fills a template with the
// applicant's answers. pdf-lib is loaded here, on first use: it is large and
// only this page needs it (DESIGN.md).
import '@/features/pdf-forms/lib/messages';
import { t } from '@/lib/i18n';

export type PdfFieldKind = 'text' | 'multiline' | 'checkbox' | 'radio' | 'dropdown' | 'date';

/** A checkbox's value is a boolean; every other kind's a string ('' for none; a date as yyyy-mm-dd). */
export type PdfFieldValue = string | boolean;

export type PdfFieldDescriptor = {
  /** The field's full name in the PDF: what the server compares. */
  name: string;
  label: string;
  kind: PdfFieldKind;
  /** Radio and dropdown choices, as the PDF names them. */
  options?: string[];
  required?: boolean;
  maxLength?: number;
  /** What the template holds already. */
  value: PdfFieldValue;
  /** The value is what the portal knew of the applicant (ask once), not the template's. */
  prefilled?: boolean;
};

/** A PDF that has no AcroForm fields (or is no PDF at all) cannot be filled in here. */
export class NoFormFieldsError extends Error {
  constructor() {
    super(t('forms.pdf.noFields'));
    this.name = 'NoFormFieldsError';
  }
}

const loadPdfLib = () => import('pdf-lib');

/** pdf-lib tests `instanceof ArrayBuffer`, which fails for a buffer made in another realm (a frame, jsdom's Blob). */
const asBytes = (bytes: ArrayBuffer | Uint8Array) => (bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));

/** "applicant_full_name" → "Applicant full name"; "dateOfBirth" → "Date of birth". */
export function humanize(name: string): string {
  const last = name.split('.').pop() ?? name;
  const words = last
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-\s]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words[0].toUpperCase() + words.slice(1) : name;
}

const MDY = /MM\/DD\/YYYY/i;
const MDY_VALUE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** yyyy-mm-dd (the date input's value) as the PDF writes it, MM/DD/YYYY; anything else unchanged. */
export function toPdfDate(value: string): string {
  const m = ISO_DATE.exec(value);
  return m ? `${m[2]}/${m[3]}/${m[1]}` : value;
}

/** MM/DD/YYYY from a template as the date input's yyyy-mm-dd; '' when it is not such a date. */
export function fromPdfDate(value: string): string {
  const m = MDY_VALUE.exec(value.trim());
  return m ? `${m[3]}-${m[1].padStart(2, '0')}-${m[2].padStart(2, '0')}` : '';
}

/** A one-line text field that holds a date: its name ends in _date, or its tooltip asks for MM/DD/YYYY. */
function isDateField(name: string, tooltip: string, multiline: boolean): boolean {
  return !multiline && (/_date$/i.test(name) || MDY.test(tooltip));
}

/** A consent the form cannot go without, even when the PDF does not mark it required. */
const CONSENT = /^\s*I\s+(authorize|consent)\b/i;

/** The field's tooltip (/TU), which forms use as the question's words. */
function tooltipOf(dict: { get(key: unknown): unknown }, PDFName: typeof import('pdf-lib').PDFName): string {
  const tu = dict.get(PDFName.of('TU')) as { decodeText?: () => string } | undefined;
  return tu?.decodeText?.().trim() ?? '';
}

/** The fields of `bytes`, in the PDF's order. Throws NoFormFieldsError when there are none. */
export async function readPdfFields(bytes: ArrayBuffer | Uint8Array): Promise<PdfFieldDescriptor[]> {
  const lib = await loadPdfLib();
  let doc: import('pdf-lib').PDFDocument;
  try {
    doc = await lib.PDFDocument.load(asBytes(bytes), { updateMetadata: false });
  } catch {
    throw new NoFormFieldsError();
  }
  const fields = doc.getForm().getFields();
  const descriptors = fields.flatMap((field): PdfFieldDescriptor[] => {
    const name = field.getName();
    const tooltip = tooltipOf(field.acroField.dict, lib.PDFName);
    const label = tooltip || humanize(name);
    const required = field.isRequired();
    if (field instanceof lib.PDFTextField) {
      const text = field.getText() ?? '';
      const maxLength = field.getMaxLength();
      if (isDateField(name, tooltip, field.isMultiline())) {
        // The date input says the format itself: "(MM/DD/YYYY)" is left out of the label.
        const dateLabel = label.replace(/\s*\(?\s*MM\/DD\/YYYY\s*\)?\s*:?\s*$/i, '').trim() || humanize(name);
        return [{ name, label: dateLabel, kind: 'date', required, value: fromPdfDate(text) }];
      }
      return [
        {
          name,
          label,
          kind: field.isMultiline() ? 'multiline' : 'text',
          required,
          ...(maxLength ? { maxLength } : {}),
          value: text,
        },
      ];
    }
    if (field instanceof lib.PDFCheckBox) {
      return [{ name, label, kind: 'checkbox', required: required || CONSENT.test(label), value: field.isChecked() }];
    }
    if (field instanceof lib.PDFRadioGroup) {
      return [{ name, label, kind: 'radio', options: field.getOptions(), required, value: field.getSelected() ?? '' }];
    }
    if (field instanceof lib.PDFDropdown || field instanceof lib.PDFOptionList) {
      return [
        { name, label, kind: 'dropdown', options: field.getOptions(), required, value: field.getSelected()[0] ?? '' },
      ];
    }
    // Buttons and signature fields hold nothing to type in.
    return [];
  });
  if (descriptors.length === 0) throw new NoFormFieldsError();
  return descriptors;
}

/**
 * The template filled with `values` (by field name), saved with fresh appearances in Helvetica so
 * every viewer shows the answers. The fields stay fields (not flattened): the server checks their
 * names against the template's.
 */
export async function fillPdf(
  bytes: ArrayBuffer | Uint8Array,
  values: Record<string, PdfFieldValue | undefined>,
): Promise<Uint8Array> {
  const lib = await loadPdfLib();
  const doc = await lib.PDFDocument.load(asBytes(bytes), { updateMetadata: false });
  const form = doc.getForm();
  for (const field of form.getFields()) {
    const name = field.getName();
    if (!(name in values)) continue;
    const value = values[name];
    if (field instanceof lib.PDFTextField) {
      const text = typeof value === 'string' ? value : '';
      const isDate = isDateField(name, tooltipOf(field.acroField.dict, lib.PDFName), field.isMultiline());
      field.setText(isDate ? toPdfDate(text) : text || undefined);
    } else if (field instanceof lib.PDFCheckBox) {
      if (value === true) field.check();
      else field.uncheck();
    } else if (field instanceof lib.PDFRadioGroup) {
      if (typeof value === 'string' && value && field.getOptions().includes(value)) field.select(value);
      else field.clear();
    } else if (field instanceof lib.PDFDropdown || field instanceof lib.PDFOptionList) {
      if (typeof value === 'string' && value && field.getOptions().includes(value)) field.select(value);
      else field.clear();
    }
  }
  const helvetica = await doc.embedFont(lib.StandardFonts.Helvetica);
  form.updateFieldAppearances(helvetica);
  return doc.save({ updateFieldAppearances: false });
}
