#!/usr/bin/env node
// Writes the demo package's fillable PDF forms (issue 11) into
// internal/demo/forms/: the Idaho background check release and the motor
// vehicle record request. The PDFs are committed; this script is how they
// are remade:
//
//   node web/scripts/gen-demo-forms.mjs             the two demo forms
//   node web/scripts/gen-demo-forms.mjs --fixture   also the test fixtures of
//                                                   internal/pdfform/testdata/
//
// The output is deterministic (fixed dates, fixed document id, no producer
// stamp), so remaking an unchanged form changes no byte.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, PDFHexString, PDFName, StandardFonts, rgb } from 'pdf-lib';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FORMS_DIR = join(ROOT, 'internal', 'demo', 'forms');
const FIXTURE_DIR = join(ROOT, 'internal', 'pdfform', 'testdata');

// Fixed, so each run writes the same bytes.
const FIXED_DATE = new Date('2026-11-01T00:00:00Z');
const LETTER = [612, 792];
const MARGIN = 54;
const INK = rgb(0.12, 0.18, 0.24);
const MUTED = rgb(0.35, 0.4, 0.45);
const ACCENT = rgb(0.1, 0.5, 0.8);
const RULE = rgb(0.8, 0.84, 0.88);
const SAMPLE = 'SAMPLE \u2014 plain-language example, not legal advice';

const US_STATES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'DC',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
];

// A form page: the header, the instructions, then fields laid out top to
// bottom, each with its printed label; every field also carries its label
// as its tooltip (TU), which the web form shows.
class FormPage {
  constructor(doc, fonts, { title, subtitle, instructions }) {
    this.doc = doc;
    this.form = doc.getForm();
    this.fonts = fonts;
    this.page = doc.addPage(LETTER);
    this.width = LETTER[0] - 2 * MARGIN;
    let y = LETTER[1] - MARGIN;
    // The sample banner.
    this.page.drawRectangle({ x: MARGIN, y: y - 22, width: this.width, height: 22, color: rgb(1, 0.95, 0.82) });
    this.page.drawText(SAMPLE, { x: MARGIN + 8, y: y - 15, size: 10, font: fonts.bold, color: rgb(0.55, 0.33, 0) });
    y -= 52;
    this.page.drawText(title, { x: MARGIN, y, size: 18, font: fonts.bold, color: INK });
    y -= 18;
    this.page.drawText(subtitle, { x: MARGIN, y, size: 10, font: fonts.regular, color: MUTED });
    y -= 10;
    this.page.drawLine({ start: { x: MARGIN, y }, end: { x: MARGIN + this.width, y }, thickness: 1.5, color: ACCENT });
    y -= 18;
    for (const line of wrap(instructions, fonts.regular, 10, this.width)) {
      this.page.drawText(line, { x: MARGIN, y, size: 10, font: fonts.regular, color: INK });
      y -= 14;
    }
    this.y = y - 8;
  }

  // A numbered section heading with a light rule under it.
  section(title) {
    this.y -= 6;
    this.page.drawText(title, { x: MARGIN, y: this.y, size: 11, font: this.fonts.bold, color: ACCENT });
    this.page.drawLine({
      start: { x: MARGIN, y: this.y - 5 },
      end: { x: MARGIN + this.width, y: this.y - 5 },
      thickness: 0.5,
      color: RULE,
    });
    this.y -= 24;
  }

  label(text, x = MARGIN) {
    this.page.drawText(text, { x, y: this.y, size: 9, font: this.fonts.bold, color: INK });
  }

  text(
    name,
    label,
    { multiline = false, lines = 3, date = false, width = this.width, x = MARGIN, advance = true } = {},
  ) {
    const tooltip = date ? `${label} (MM/DD/YYYY)` : label;
    this.label(date ? `${label} (MM/DD/YYYY)` : label, x);
    const height = multiline ? 14 * lines + 8 : 22;
    const field = this.form.createTextField(name);
    if (multiline) field.enableMultiline();
    if (date) field.setMaxLength(10);
    field.addToPage(this.page, {
      x,
      y: this.y - 6 - height,
      width,
      height,
      font: this.fonts.regular,
      borderColor: MUTED,
      borderWidth: 1,
    });
    field.setFontSize(10);
    setTooltip(field, tooltip);
    if (advance) this.y -= height + 26;
    return height;
  }

  // Two fields side by side on one row.
  row(left, right) {
    const half = (this.width - 18) / 2;
    const h1 = this.text(left[0], left[1], { ...left[2], width: half, advance: false });
    const h2 = this.text(right[0], right[1], { ...right[2], width: half, x: MARGIN + half + 18, advance: false });
    this.y -= Math.max(h1, h2) + 26;
  }

  dropdown(name, label, options, width = 220) {
    this.label(label);
    const field = this.form.createDropdown(name);
    field.addOptions(options);
    field.addToPage(this.page, {
      x: MARGIN,
      y: this.y - 28,
      width,
      height: 22,
      font: this.fonts.regular,
      borderColor: MUTED,
      borderWidth: 1,
    });
    field.setFontSize(10);
    setTooltip(field, label);
    this.y -= 50;
  }

  radio(name, label, options) {
    this.label(label);
    const field = this.form.createRadioGroup(name);
    let x = MARGIN;
    for (const option of options) {
      field.addOptionToPage(option, this.page, {
        x,
        y: this.y - 22,
        width: 12,
        height: 12,
        borderColor: MUTED,
        borderWidth: 1,
      });
      this.page.drawText(option, { x: x + 17, y: this.y - 20, size: 10, font: this.fonts.regular, color: INK });
      x += 30 + this.fonts.regular.widthOfTextAtSize(option, 10) + 12;
    }
    setTooltip(field, label);
    this.y -= 42;
  }

  checkbox(name, label) {
    const field = this.form.createCheckBox(name);
    field.addToPage(this.page, {
      x: MARGIN,
      y: this.y - 12,
      width: 12,
      height: 12,
      borderColor: MUTED,
      borderWidth: 1,
    });
    const lines = wrap(label, this.fonts.regular, 10, this.width - 22);
    let y = this.y - 10;
    for (const line of lines) {
      this.page.drawText(line, { x: MARGIN + 20, y, size: 10, font: this.fonts.regular, color: INK });
      y -= 13;
    }
    setTooltip(field, label);
    this.y -= 13 * lines.length + 18;
  }

  footer(text) {
    for (const [i, line] of wrap(text, this.fonts.regular, 8, this.width).entries()) {
      this.page.drawText(line, {
        x: MARGIN,
        y: MARGIN - 10 + 10 * (1 - i),
        size: 8,
        font: this.fonts.regular,
        color: MUTED,
      });
    }
  }
}

function setTooltip(field, text) {
  field.acroField.dict.set(PDFName.of('TU'), PDFHexString.fromText(text));
}

function wrap(text, font, size, width) {
  const lines = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) > width && line) {
      lines.push(line);
      line = word;
    } else {
      line = next;
    }
  }
  if (line) lines.push(line);
  return lines;
}

async function newDocument(title, subject) {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(title);
  doc.setSubject(subject);
  doc.setAuthor('Applicant Portal demo');
  doc.setCreator('web/scripts/gen-demo-forms.mjs');
  doc.setProducer('pdf-lib');
  doc.setCreationDate(FIXED_DATE);
  doc.setModificationDate(FIXED_DATE);
  const fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
  };
  return { doc, fonts };
}

// save writes the document with a fixed /ID derived from its code, so the
// bytes do not change between runs.
async function save(doc, code) {
  const id = PDFHexString.of(Buffer.from(code.padEnd(16, '-').slice(0, 16)).toString('hex'));
  doc.context.trailerInfo.ID = doc.context.obj([id, id]);
  return doc.save();
}

async function idahoRelease() {
  const { doc, fonts } = await newDocument(
    'Idaho background check release (sample)',
    'Authorization to release Idaho criminal history records',
  );
  const f = new FormPage(doc, fonts, {
    title: 'Idaho Background Check Release',
    subtitle: 'Authorization to release criminal history records held in Idaho',
    instructions:
      'Fill in every field in ink or on screen. Use the name on your government ID. List every Idaho county you have lived in, one per line. Dates use the form MM/DD/YYYY. Read the authorization, tick the box, then type your name and the date to sign.',
  });
  f.section('1. About you');
  f.text('applicant_full_name', 'Full legal name');
  f.row(
    ['other_names_used', 'Other names used (maiden, former, nicknames)'],
    ['birth_date', 'Date of birth', { date: true }],
  );
  f.text('current_address', 'Current address (street, city, state, ZIP)', { multiline: true, lines: 3 });
  f.text('idaho_counties', 'Idaho counties lived in (one per line)', { multiline: true, lines: 3 });
  f.section('2. The request');
  f.dropdown('purpose', 'Purpose of the check', ['Employment', 'Volunteer position', 'Professional license']);
  f.radio('contact_preference', 'How should we contact you about this request?', ['Email', 'Phone', 'Mail']);
  f.section('3. Authorization and signature');
  f.checkbox(
    'authorize_release',
    'I authorize the release of my criminal history records held by Idaho agencies and courts to the screening provider, for the purpose chosen above. This authorization is valid for one year from the date I sign.',
  );
  f.row(['signature_name', 'Signature (type your full name)'], ['signature_date', 'Date signed', { date: true }]);
  f.footer(
    'This sample form shows how a state release might read. It is not an official Idaho State Police form and does not give legal advice.',
  );
  return save(doc, 'idaho-release');
}

async function mvrRequest() {
  const { doc, fonts } = await newDocument(
    'Motor vehicle record request (sample)',
    'Consent to obtain a driving record',
  );
  const f = new FormPage(doc, fonts, {
    title: 'Motor Vehicle Record Request',
    subtitle: 'Consent to obtain your driving record from the state that issued your license',
    instructions:
      'Copy your license details exactly as printed on the card. Choose the class of license you hold. Dates use the form MM/DD/YYYY. Tick the consent box and date the form; without consent the record cannot be requested.',
  });
  f.section('1. About you and your license');
  f.text('full_name', 'Full name as printed on your license');
  f.row(['license_number', "Driver's license number"], ['birth_date', 'Date of birth', { date: true }]);
  f.dropdown('issuing_state', 'Issuing state', US_STATES, 120);
  f.radio('license_class', 'License class', ['Class A CDL', 'Class B CDL', 'Class C CDL', 'Non-commercial']);
  f.section('2. Commercial driving');
  f.checkbox(
    'commercial_license_last_3_years',
    "I hold or held a commercial driver's license (CDL) in the last 3 years.",
  );
  f.section('3. Consent');
  f.checkbox(
    'consent',
    'I consent to the screening provider obtaining my motor vehicle record from the issuing state, and from any state where I held a license in the last 3 years, for employment purposes.',
  );
  f.text('consent_date', 'Date', { date: true, width: 160 });
  f.footer(
    'This sample form shows how a driving record request might read. It is not an official state form and does not give legal advice.',
  );
  return save(doc, 'mvr-request');
}

// The test fixtures: a copy of the Idaho release filled as the web form
// fills it (fields kept, not flattened), a PDF without a form, and a form
// with nested field names.
async function fixtures(idaho) {
  const filled = await PDFDocument.load(idaho, { updateMetadata: false });
  const form = filled.getForm();
  form.getTextField('applicant_full_name').setText('Casey Morgan');
  form.getTextField('other_names_used').setText('Casey Ellis');
  form.getTextField('birth_date').setText('04/12/1990');
  form.getTextField('current_address').setText('12 Main Street\nBoise, ID 83702');
  form.getTextField('idaho_counties').setText('Ada\nCanyon');
  form.getDropdown('purpose').select('Employment');
  form.getRadioGroup('contact_preference').select('Email');
  form.getCheckBox('authorize_release').check();
  form.getTextField('signature_name').setText('Casey Morgan');
  form.getTextField('signature_date').setText('11/22/2026');
  const filledBytes = await save(filled, 'idaho-filled');

  const { doc: plain, fonts } = await newDocument('No form', 'A PDF without form fields');
  plain.addPage(LETTER).drawText('This PDF has no form fields.', { x: MARGIN, y: 700, size: 14, font: fonts.regular });
  const plainBytes = await save(plain, 'no-form');

  const { doc: nested } = await newDocument('Nested fields', 'Field names with parents');
  const page = nested.addPage(LETTER);
  const nestedForm = nested.getForm();
  // pdf-lib makes "applicant" a parent field with kids "name" and "address".
  nestedForm.createTextField('applicant.name').addToPage(page, { x: MARGIN, y: 700, width: 200, height: 20 });
  nestedForm.createTextField('applicant.address.city').addToPage(page, { x: MARGIN, y: 660, width: 200, height: 20 });
  nestedForm.createCheckBox('agree').addToPage(page, { x: MARGIN, y: 620, width: 12, height: 12 });
  const nestedBytes = await save(nested, 'nested');
  return { 'idaho-release-filled.pdf': filledBytes, 'no-form.pdf': plainBytes, 'nested-fields.pdf': nestedBytes };
}

const idaho = await idahoRelease();
const mvr = await mvrRequest();
mkdirSync(FORMS_DIR, { recursive: true });
writeFileSync(join(FORMS_DIR, 'idaho-release.pdf'), idaho);
writeFileSync(join(FORMS_DIR, 'mvr-request.pdf'), mvr);
console.log(`wrote ${FORMS_DIR}/idaho-release.pdf (${idaho.length} bytes), mvr-request.pdf (${mvr.length} bytes)`);
if (process.argv.includes('--fixture')) {
  mkdirSync(FIXTURE_DIR, { recursive: true });
  for (const [name, bytes] of Object.entries(await fixtures(idaho))) {
    writeFileSync(join(FIXTURE_DIR, name), bytes);
    console.log(`wrote ${FIXTURE_DIR}/${name} (${bytes.length} bytes)`);
  }
}
