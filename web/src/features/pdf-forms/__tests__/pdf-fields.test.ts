import { PDFDocument, PDFHexString, PDFName, PDFCheckBox, PDFDropdown, PDFRadioGroup, PDFTextField } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { checkField } from '../lib/form-values';
import { fillPdf, fromPdfDate, humanize, readPdfFields, toPdfDate } from '../lib/pdf-fields';

/** A one-page template with one field of each kind the page supports, as the demo's forms have them. */
async function template(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const form = doc.getForm();
  const tip = (field: { acroField: { dict: { set(k: PDFName, v: PDFHexString): void } } }, text: string) =>
    field.acroField.dict.set(PDFName.of('TU'), PDFHexString.fromText(text));

  const name = form.createTextField('applicant_full_name');
  name.addToPage(page, { x: 50, y: 700, width: 300, height: 20 });
  name.enableRequired();
  name.setMaxLength(60);
  tip(name, 'Full legal name');

  const birth = form.createTextField('date_of_birth');
  birth.addToPage(page, { x: 50, y: 660, width: 120, height: 20 });
  tip(birth, 'Date of birth (MM/DD/YYYY)');

  const signed = form.createTextField('signature_date');
  signed.addToPage(page, { x: 200, y: 660, width: 120, height: 20 });

  const notes = form.createTextField('other_names_used');
  notes.enableMultiline();
  notes.addToPage(page, { x: 50, y: 560, width: 400, height: 80 });

  const license = form.createDropdown('license_state');
  license.addOptions(['Idaho', 'Oregon', 'Washington']);
  license.addToPage(page, { x: 50, y: 520, width: 150, height: 20 });
  tip(license, 'State that issued your license');

  const delivery = form.createRadioGroup('copy_delivery');
  delivery.addOptionToPage('email', page, { x: 50, y: 480, width: 15, height: 15 });
  delivery.addOptionToPage('postal_mail', page, { x: 120, y: 480, width: 15, height: 15 });
  delivery.enableRequired();

  const consent = form.createCheckBox('authorization');
  consent.addToPage(page, { x: 50, y: 440, width: 15, height: 15 });
  tip(consent, 'I authorize the release of my records to the employer named above.');

  const copy = form.createCheckBox('send_me_a_copy');
  copy.addToPage(page, { x: 50, y: 410, width: 15, height: 15 });

  return doc.save();
}

describe('reading a PDF form', () => {
  it('describes each field with its label, kind, choices and rules', async () => {
    const fields = await readPdfFields(await template());
    expect(fields).toEqual([
      { name: 'applicant_full_name', label: 'Full legal name', kind: 'text', required: true, maxLength: 60, value: '' },
      { name: 'date_of_birth', label: 'Date of birth', kind: 'date', required: false, value: '' },
      { name: 'signature_date', label: 'Signature date', kind: 'date', required: false, value: '' },
      { name: 'other_names_used', label: 'Other names used', kind: 'multiline', required: false, value: '' },
      {
        name: 'license_state',
        label: 'State that issued your license',
        kind: 'dropdown',
        options: ['Idaho', 'Oregon', 'Washington'],
        required: false,
        value: '',
      },
      {
        name: 'copy_delivery',
        label: 'Copy delivery',
        kind: 'radio',
        options: ['email', 'postal_mail'],
        required: true,
        value: '',
      },
      {
        name: 'authorization',
        label: 'I authorize the release of my records to the employer named above.',
        kind: 'checkbox',
        // Not marked required in the PDF: a consent is required all the same.
        required: true,
        value: false,
      },
      { name: 'send_me_a_copy', label: 'Send me a copy', kind: 'checkbox', required: false, value: false },
    ]);
  });

  it('refuses a PDF without form fields, and bytes that are no PDF', async () => {
    const doc = await PDFDocument.create();
    doc.addPage();
    await expect(readPdfFields(await doc.save())).rejects.toThrow('This PDF has no form fields.');
    await expect(readPdfFields(new TextEncoder().encode('MZ not a pdf'))).rejects.toThrow(
      'This PDF has no form fields.',
    );
  });
});

describe('filling a PDF form', () => {
  it('writes every answer into the fields, which stay fields, with dates as MM/DD/YYYY', async () => {
    const filled = await fillPdf(await template(), {
      applicant_full_name: 'Dana Q. Demo',
      date_of_birth: '1990-04-07',
      signature_date: '2026-11-22',
      other_names_used: 'Dana Smith\nDana Jones',
      license_state: 'Oregon',
      copy_delivery: 'postal_mail',
      authorization: true,
      send_me_a_copy: false,
    });
    const form = (await PDFDocument.load(filled)).getForm();
    expect(form.getFields().map((f) => f.getName())).toEqual([
      'applicant_full_name',
      'date_of_birth',
      'signature_date',
      'other_names_used',
      'license_state',
      'copy_delivery',
      'authorization',
      'send_me_a_copy',
    ]);
    expect(form.getField('applicant_full_name')).toBeInstanceOf(PDFTextField);
    expect(form.getTextField('applicant_full_name').getText()).toBe('Dana Q. Demo');
    expect(form.getTextField('date_of_birth').getText()).toBe('04/07/1990');
    expect(form.getTextField('signature_date').getText()).toBe('11/22/2026');
    expect(form.getTextField('other_names_used').getText()).toBe('Dana Smith\nDana Jones');
    expect(form.getField('license_state')).toBeInstanceOf(PDFDropdown);
    expect(form.getDropdown('license_state').getSelected()).toEqual(['Oregon']);
    expect(form.getField('copy_delivery')).toBeInstanceOf(PDFRadioGroup);
    expect(form.getRadioGroup('copy_delivery').getSelected()).toBe('postal_mail');
    expect(form.getField('authorization')).toBeInstanceOf(PDFCheckBox);
    expect(form.getCheckBox('authorization').isChecked()).toBe(true);
    expect(form.getCheckBox('send_me_a_copy').isChecked()).toBe(false);
    // The answers show in the page's appearance streams, drawn in Helvetica.
    expect(new TextDecoder('latin1').decode(filled)).toContain('/Helvetica');

    // Read back as the page reads a template: the same answers, the date as the date input takes it.
    const again = await readPdfFields(filled);
    expect(Object.fromEntries(again.map((f) => [f.name, f.value]))).toEqual({
      applicant_full_name: 'Dana Q. Demo',
      date_of_birth: '1990-04-07',
      signature_date: '2026-11-22',
      other_names_used: 'Dana Smith\nDana Jones',
      license_state: 'Oregon',
      copy_delivery: 'postal_mail',
      authorization: true,
      send_me_a_copy: false,
    });
  });

  it('writes every character the checks let through', async () => {
    const name = 'Zoë Ñúñez-Ørsted “Jr.” € …';
    expect(checkField({ name: 'n', label: 'n', kind: 'text', value: '' }, name)).toBeUndefined();
    const filled = await fillPdf(await template(), { applicant_full_name: name });
    expect((await PDFDocument.load(filled)).getForm().getTextField('applicant_full_name').getText()).toBe(name);
  });

  it('clears what is left empty, and leaves fields it is not given as they were', async () => {
    const first = await fillPdf(await template(), { applicant_full_name: 'Dana', copy_delivery: 'email' });
    const second = await fillPdf(first, { copy_delivery: '', license_state: '' });
    const form = (await PDFDocument.load(second)).getForm();
    expect(form.getTextField('applicant_full_name').getText()).toBe('Dana');
    expect(form.getRadioGroup('copy_delivery').getSelected()).toBeUndefined();
    expect(form.getDropdown('license_state').getSelected()).toEqual([]);
  });
});

describe('the words and checks of a field', () => {
  it('humanizes field names and converts dates both ways', () => {
    expect(humanize('applicant_full_name')).toBe('Applicant full name');
    expect(humanize('dateOfBirth')).toBe('Date of birth');
    expect(humanize('page1.home-address')).toBe('Home address');
    expect(toPdfDate('1990-04-07')).toBe('04/07/1990');
    expect(fromPdfDate('4/7/1990')).toBe('1990-04-07');
    expect(fromPdfDate('soon')).toBe('');
  });

  it('asks for what is required, a real date, and no more than the PDF holds', () => {
    const text = {
      name: 'n',
      label: 'Full legal name',
      kind: 'text' as const,
      required: true,
      maxLength: 5,
      value: '',
    };
    expect(checkField(text, ' ')).toBe('Full legal name is required.');
    expect(checkField(text, 'Dana Demo')).toBe('Full legal name must be at most 5 characters.');
    expect(checkField({ ...text, kind: 'radio', options: ['a'] }, '')).toBe('Choose an answer for Full legal name.');
    expect(checkField({ ...text, kind: 'date', maxLength: undefined }, '2026-02-30')).toBe(
      'Full legal name is not a valid date.',
    );
    expect(checkField({ ...text, kind: 'checkbox', value: false }, false)).toBe(
      'Tick this box: the form cannot be submitted without it.',
    );
    expect(checkField({ ...text, required: false }, '')).toBeUndefined();
    expect(checkField({ ...text, maxLength: undefined }, 'Zoë Müller–Ørsted')).toBeUndefined();
    expect(checkField({ ...text, maxLength: undefined }, 'Michał Wójcik 李')).toBe(
      'Full legal name has characters this form cannot hold: ł 李. Write them with plain letters (for example ł as l).',
    );
  });
});
