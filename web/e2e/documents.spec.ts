// Issue 11 through the real binary, as a new applicant meets it: documents sent with the file
// chooser and by drag and drop, downloaded back byte for byte, a 21 MB file refused at the field,
// one deleted; the motor vehicle record form filled in (every kind of field), submitted and
// downloaded with the answers in it; the Idaho release that an Idaho address brings, required;
// a background report an operator attaches with `portal report upload`; and the same pages on a
// 360 px phone. Each test invites its own applicant and goes through setup, so none depends on
// another. Every page is held to "axe-core finds no violation of any impact".
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Response } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { expect, expectAccessible, test } from './fixtures';
import { AddressesPage, dateField, fillDate, HubPage, label, monthsAgo } from './pom/data-pages';
import {
  applicant,
  attachReport,
  canvasHasInk,
  canvasPicture,
  DocumentsPage,
  downloadedBytes,
  FormsPage,
  navEntry,
  newApplicantThroughSetup,
} from './pom/documents';

/**
 * No axe violation of any impact, on the page at rest: the top loading bar (outside the landmarks while
 * it shows, for 500 ms after a load that took over 200 ms) has gone first. See notes/e2e-docs.md.
 */
async function axe(page: Page, context: string) {
  await expect(page.getByRole('progressbar', { name: 'Loading' })).toHaveCount(0);
  await expectAccessible(page, context, { anyImpact: true });
}

async function expectNoSideScroll(page: Page, context: string) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `horizontal scroll on ${context}`).toBeLessThanOrEqual(360);
}

/** A small real PDF, one page with a line of text on it. */
async function makePdf(line: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([300, 200]).drawText(line, { x: 20, y: 150, size: 12, font });
  return Buffer.from(await doc.save());
}

/** A real 1x1 PNG. */
const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const LICENSE = "Driver's license or state ID";
const DIPLOMA = 'Diploma or transcript';
const MVR = 'Motor vehicle record request (sample)';
const IDAHO = 'Idaho background check release (sample)';

/** A card's badge: "✓ Sent", the mark hidden from screen readers. */
const sentBadge = /^(✓\s*)?Sent$/;

const isDocumentUpload = (r: Response) =>
  new URL(r.url()).pathname === '/api/v2/user/profile/documents' && r.request().method() === 'POST';

// Setup signs several documents before anything of this issue is reached: on 2 cores that is most
// of a test's time.
test.use({ actionTimeout: 15_000 });
test.describe.configure({ timeout: 90_000 });

test('desktop: documents go up with the chooser and by drag and drop, come back byte for byte, a 21 MB file is refused at the field, one is deleted', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await newApplicantThroughSetup(page, `docs11.desktop.${Date.now()}@example.com`);

  // The hub lists what is asked for, nothing sent yet; the menu leads to the page.
  const hub = new HubPage(page);
  const summary = page.getByRole('region', { name: 'Documents', exact: true });
  await expect(summary.getByRole('listitem').filter({ hasText: LICENSE })).toContainText('Not sent yet');
  await navEntry(page, 'Additional Documents', 'optional').click();
  await expect(page).toHaveURL(/\/additional-documents$/);
  const documents = new DocumentsPage(page);
  await expect(documents.heading).toBeVisible();
  await expect(documents.card(LICENSE).getByText('Nothing sent yet.')).toBeVisible();
  await axe(page, 'additional documents, nothing sent');

  // A PDF with the file chooser.
  const pdf = {
    name: 'license-front.pdf',
    mimeType: 'application/pdf',
    buffer: await makePdf('Jordan Reyes, D7654321'),
  };
  const pdfSent = page.waitForResponse(isDocumentUpload);
  await documents.chooseFiles(LICENSE, [pdf]);
  expect((await pdfSent).status()).toBe(201);
  await expect(page.getByText('Document uploaded', { exact: true })).toBeVisible();
  const licenseCard = documents.card(LICENSE);
  await expect(licenseCard.getByText(pdf.name, { exact: true })).toBeVisible();
  await expect(licenseCard.getByText(sentBadge)).toBeVisible();

  // A PNG dropped on the diploma's card.
  const png = { name: 'diploma.png', mimeType: 'image/png', buffer: tinyPng };
  const pngSent = page.waitForResponse(isDocumentUpload);
  await documents.dropFile(DIPLOMA, png);
  expect((await pngSent).status()).toBe(201);
  const diplomaCard = documents.card(DIPLOMA);
  await expect(diplomaCard.getByText(png.name, { exact: true })).toBeVisible();
  await expect(diplomaCard.getByText(sentBadge)).toBeVisible();
  await expect(diplomaCard.getByText(new RegExp(`^${tinyPng.length} bytes · sent `))).toBeVisible();

  // Both come back as they were sent, under their names.
  for (const file of [pdf, png]) {
    const started = page.waitForEvent('download');
    await documents.download(file.name).click();
    const download = await started;
    expect(download.suggestedFilename()).toBe(file.name);
    expect((await downloadedBytes(download)).equals(file.buffer), `bytes of ${file.name}`).toBe(true);
  }

  // 21 MB is refused next to the field, before a byte is sent; what was sent stays.
  let posted = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/v2/user/profile/documents') posted++;
  });
  const big = Buffer.alloc(21 * 1024 * 1024, 0x20);
  big.write('%PDF-1.7\n');
  const bigDir = mkdtempSync(join(tmpdir(), 'portal-e2e-big-'));
  writeFileSync(join(bigDir, 'scan-21mb.pdf'), big);
  await documents.chooseFiles(LICENSE, [join(bigDir, 'scan-21mb.pdf')]);
  rmSync(bigDir, { recursive: true, force: true });
  const refusal = documents.picker(LICENSE).getByRole('alert').filter({
    hasText: 'scan-21mb.pdf is larger than 20 MB. Choose a smaller file, or take the photo at a lower resolution.',
  });
  await expect(refusal).toBeVisible();
  // The picker's button is described by the message, so a screen reader hears it there.
  const refusalId = await refusal.getAttribute('id');
  expect(refusalId).toBeTruthy();
  await expect(documents.chooseButton(LICENSE)).toHaveAttribute('aria-describedby', new RegExp(`\\b${refusalId}\\b`));
  await axe(page, 'additional documents with a refused file');
  expect(posted, 'requests sent for the 21 MB file').toBe(0);
  await expect(licenseCard.getByText(pdf.name, { exact: true })).toBeVisible();
  await documents.picker(LICENSE).getByRole('button', { name: 'Remove scan-21mb.pdf from the list' }).click();
  await expect(refusal).toHaveCount(0);

  // A program renamed .pdf passes the picker's checks; the server reads its first bytes and refuses it,
  // and its message shows at the field too.
  const fake = {
    name: 'license-scan.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('MZ\x90\x00 not a PDF at all'),
  };
  const fakeSent = page.waitForResponse(isDocumentUpload);
  await documents.chooseFiles(LICENSE, [fake]);
  expect((await fakeSent).status()).toBe(415);
  await expect(
    documents
      .picker(LICENSE)
      .getByRole('alert')
      .filter({ hasText: "The file's content does not match its type: it is not a real PDF." }),
  ).toBeVisible();
  await expect(documents.download(fake.name)).toHaveCount(0);
  await expect(licenseCard.getByText(pdf.name, { exact: true })).toBeVisible();
  await documents
    .picker(LICENSE)
    .getByRole('button', { name: `Remove ${fake.name} from the list` })
    .click();

  // The PNG is deleted, after the dialog asks.
  await documents.deleteFile(png.name);
  await expect(page.getByText('Document deleted', { exact: true })).toBeVisible();
  await expect(diplomaCard.getByText(png.name, { exact: true })).toHaveCount(0);
  await expect(diplomaCard.getByText('Nothing sent yet.')).toBeVisible();
  await expect(diplomaCard.getByText(sentBadge)).toHaveCount(0);
  await expect(licenseCard.getByText(pdf.name, { exact: true })).toBeVisible();
  await axe(page, 'additional documents, one sent');
  await page.screenshot({ path: '/work/shots/e2e-docs-documents.png', fullPage: true });

  // The hub says which were sent.
  await hub.goto();
  await expect(summary.getByRole('listitem').filter({ hasText: LICENSE })).toContainText('Sent (1)');
  await expect(summary.getByRole('listitem').filter({ hasText: DIPLOMA })).toContainText('Not sent yet');
  await axe(page, 'hub with a document sent');
});

test('forms: the motor vehicle record request is filled in (every kind of field), refused empty, submitted, and downloaded with the answers in it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await newApplicantThroughSetup(page, `docs11.mvr.${Date.now()}@example.com`);

  // Forms is optional for a Texan: the record request only, no Idaho release.
  await navEntry(page, 'Forms', 'optional').click();
  await expect(page).toHaveURL(/\/fillable-pdf-form$/);
  const forms = new FormsPage(page);
  await expect(forms.heading).toBeVisible();
  const card = forms.card(MVR);
  await expect(card).toContainText('Optional');
  await expect(card).toContainText('Not submitted yet');
  await expect(forms.card(IDAHO)).toHaveCount(0);
  await axe(page, 'forms list');

  await forms.open(MVR);
  const editor = forms.editor(MVR);
  await expect(forms.previewPage()).toBeVisible();
  expect(await canvasHasInk(forms.previewPage()), 'the preview shows the form').toBe(true);
  const blank = await canvasPicture(forms.previewPage());
  await axe(page, 'form editor');

  // Sent empty: the consent is what the form cannot go without, and it says so at the box.
  const consent = editor.getByRole('checkbox', { name: /^I consent to the screening provider obtaining/ });
  await forms.submit(MVR);
  await expect(consent).toHaveAttribute('aria-invalid', 'true');
  const consentError = 'Tick this box: the form cannot be submitted without it.';
  await expect(consent).toHaveAccessibleDescription(new RegExp(consentError.replace(/[.:]/g, '\\$&')));
  await expect(editor.getByText(consentError, { exact: true })).toBeVisible();
  await axe(page, 'form editor with an error');

  // Every kind of field: text, date, dropdown, radio group, checkbox.
  await editor.getByLabel(label('Full name as printed on your license')).fill('Jordan A. Reyes');
  await editor.getByLabel(label("Driver's license number")).fill('D7654321');
  await fillDate(dateField(editor, 'Date of birth'), '1990-04-12');
  await editor.getByLabel(label('Issuing state')).selectOption('TX');
  await editor
    .getByRole('radiogroup', { name: label('License class') })
    .getByRole('radio', { name: 'Class A CDL' })
    .check();
  await editor.getByRole('checkbox', { name: /^I hold or held a commercial driver's license/ }).check();
  await consent.check();
  await fillDate(dateField(editor, 'Date'), '2026-11-22');
  await expect(consent).not.toHaveAttribute('aria-invalid', 'true');
  // The preview is drawn again with the answers in it.
  await expect.poll(() => canvasPicture(forms.previewPage()), { timeout: 10_000 }).not.toBe(blank);
  await page.screenshot({ path: '/work/shots/e2e-docs-form-editor.png', fullPage: true });
  await forms.submit(MVR);

  await expect(page.getByText('Form submitted', { exact: true })).toBeVisible();
  await expect(editor).toHaveCount(0);
  await expect(card).toContainText(/Submitted on \w+/);
  // The only form is sent: the way on is the next thing left to do.
  await expect(forms.sent()).toBeFocused();
  await expect(forms.sent().getByRole('button', { name: 'Continue', exact: true })).toBeVisible();
  await axe(page, 'forms list, one submitted');

  // The copy sent holds what was typed, in the PDF's own fields.
  const started = page.waitForEvent('download');
  await forms.downloadSubmitted(MVR).click();
  const download = await started;
  expect(download.suggestedFilename()).toBe('mvr-request.pdf');
  const filled = (await PDFDocument.load(await downloadedBytes(download))).getForm();
  expect(filled.getTextField('full_name').getText()).toBe('Jordan A. Reyes');
  expect(filled.getTextField('license_number').getText()).toBe('D7654321');
  expect(filled.getTextField('birth_date').getText()).toBe('04/12/1990');
  expect(filled.getDropdown('issuing_state').getSelected()).toEqual(['TX']);
  expect(filled.getRadioGroup('license_class').getSelected()).toBe('Class A CDL');
  expect(filled.getCheckBox('commercial_license_last_3_years').isChecked()).toBe(true);
  expect(filled.getCheckBox('consent').isChecked()).toBe(true);
  expect(filled.getTextField('consent_date').getText()).toBe('11/22/2026');
});

test('forms: an Idaho address brings the Idaho release, required, and Forms stays to do until it is submitted', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await newApplicantThroughSetup(page, `docs11.idaho.${Date.now()}@example.com`);
  const forms = new FormsPage(page);
  await forms.goto();
  await expect(forms.card(MVR)).toBeVisible();
  await expect(forms.card(IDAHO)).toHaveCount(0);
  await expect(navEntry(page, 'Forms', 'optional')).toBeVisible();

  // An address in Boise, covering the seven years asked for.
  await page.goto('/addresses');
  const history = new AddressesPage(page);
  await expect(history.form).toBeVisible();
  await history.fillAddress(0, {
    country: 'United States',
    street1: '150 N Capitol Blvd',
    city: 'Boise',
    state: 'Idaho',
    zip: '83702',
    from: monthsAgo(100),
  });
  await history.saveAndContinue();
  await expect(page.getByText('Addresses saved', { exact: true })).toBeVisible();

  await forms.goto();
  const idaho = forms.card(IDAHO);
  await expect(idaho).toContainText('Required');
  await expect(idaho).toContainText('Not submitted yet');
  await expect(navEntry(page, 'Forms', 'to do')).toBeVisible();
  const hub = new HubPage(page);
  await hub.goto();
  await expect(hub.checklist.getByText(`Fill in and submit the ${IDAHO}.`)).toBeVisible();
  await expect(hub.item('Forms')).toBeVisible();

  // Filled in and submitted from the checklist: Forms is done.
  await hub.follow('Forms');
  await forms.open(IDAHO);
  const editor = forms.editor(IDAHO);
  await editor.getByLabel(label('Full legal name')).fill('Jordan Reyes');
  await fillDate(dateField(editor, 'Date of birth'), '1990-04-12');
  await editor
    .getByLabel(label('Current address (street, city, state, ZIP)'))
    .fill('150 N Capitol Blvd\nBoise, ID 83702');
  await editor.getByLabel(label('Idaho counties lived in (one per line)')).fill('Ada\nCanyon');
  await editor.getByLabel(label('Purpose of the check')).selectOption('Employment');
  await editor
    .getByRole('radiogroup', { name: label('How should we contact you about this request?') })
    .getByRole('radio', { name: 'Email' })
    .check();
  await editor.getByRole('checkbox', { name: /^I authorize the release of my criminal history records/ }).check();
  await editor.getByLabel(label('Signature (type your full name)')).fill('Jordan Reyes');
  await fillDate(dateField(editor, 'Date signed'), '2026-11-22');
  await forms.submit(IDAHO);
  await expect(page.getByText('Form submitted', { exact: true })).toBeVisible();
  await expect(idaho).toContainText(/Submitted on \w+/);
  // The record request is still unsent, and optional: offered next, with Continue beside it.
  await expect(forms.sent().getByRole('button', { name: `Continue to ${MVR}` })).toBeVisible();
  await expect(forms.sent().getByRole('button', { name: 'Continue', exact: true })).toBeVisible();
  await expect(navEntry(page, 'Forms', 'done')).toBeVisible();

  const started = page.waitForEvent('download');
  await forms.downloadSubmitted(IDAHO).click();
  const filled = (await PDFDocument.load(await downloadedBytes(await started))).getForm();
  expect(filled.getTextField('current_address').getText()).toBe('150 N Capitol Blvd\nBoise, ID 83702');
  expect(filled.getRadioGroup('contact_preference').getSelected()).toBe('Email');
  expect(filled.getCheckBox('authorize_release').isChecked()).toBe(true);

  await hub.goto();
  await expect(hub.checklist.getByText(`Fill in and submit the ${IDAHO}.`)).toHaveCount(0);
});

test('reports: a background report attached with `portal report upload` is offered on the hub, linking to the viewer (report-viewer.spec.ts reads and downloads it)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const { subjectId } = await newApplicantThroughSetup(page, `docs11.report.${Date.now()}@example.com`);
  const summary = page.getByRole('region', { name: 'Documents', exact: true });
  await expect(summary).toBeVisible();
  await expect(summary.getByText('Background report')).toHaveCount(0);

  const dir = mkdtempSync(join(tmpdir(), 'portal-e2e-report-'));
  try {
    const report = await makePdf(`Background report for ${applicant.firstName} ${applicant.lastName}`);
    const file = join(dir, 'operator-export-0042.pdf');
    writeFileSync(file, report);
    expect(attachReport(subjectId, 'report', file)).toMatch(
      new RegExp(
        `^Attached \\S+ \\(${report.length} bytes, SHA-256 [0-9a-f]{64}\\) as report of applicant ${subjectId}\\.`,
      ),
    );

    await page.reload();
    await expect(summary.getByText('Background report', { exact: true })).toBeVisible();
    await expect(summary.getByRole('link', { name: 'Read your background report' })).toHaveAttribute('href', '/report');
    await axe(page, 'hub with a report');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

  test('phone, 360 px: uploading and the form editor fit the screen, the preview below the fields', async ({
    page,
  }) => {
    await newApplicantThroughSetup(page, `docs11.phone.${Date.now()}@example.com`);

    const documents = new DocumentsPage(page);
    await documents.goto();
    // A phone offers its camera too.
    await expect(documents.picker(LICENSE).getByRole('button', { name: 'Take a photo', exact: true })).toBeVisible();
    const pdf = { name: 'license-back.pdf', mimeType: 'application/pdf', buffer: await makePdf('Back of the card') };
    await documents.chooseFiles(LICENSE, [pdf]);
    await expect(documents.card(LICENSE).getByText(pdf.name, { exact: true })).toBeVisible();
    await expectNoSideScroll(page, 'additional documents');
    await axe(page, 'additional documents on a phone');

    const forms = new FormsPage(page);
    await forms.goto();
    await expectNoSideScroll(page, 'forms list');
    await forms.open(MVR);
    await expect(forms.previewPage()).toBeVisible();
    await forms.editor(MVR).getByLabel(label('Full name as printed on your license')).fill('Jordan Reyes');
    await expectNoSideScroll(page, 'form editor');
    const fieldsBox = await forms.editor(MVR).boundingBox();
    const previewBox = await forms.preview.boundingBox();
    expect(fieldsBox && previewBox, 'the form and its preview are laid out').toBeTruthy();
    expect(previewBox!.y, 'the preview sits below the fields').toBeGreaterThanOrEqual(
      fieldsBox!.y + fieldsBox!.height - 1,
    );
    expect(previewBox!.width).toBeLessThanOrEqual(360);
    await axe(page, 'form editor on a phone');

    // Too small to read there: full screen, zoomed, it scrolls inside the dialog, not the page.
    await forms.openFullScreen(MVR);
    const fullScreen = forms.fullScreen(MVR);
    await expect(fullScreen.getByRole('img', { name: /^Page 1 of \d+ of the filled form$/ })).toBeVisible();
    const box = await fullScreen.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(360);
    await fullScreen.getByRole('button', { name: 'Zoom in' }).click();
    await expect(fullScreen.getByText('150%', { exact: true })).toBeVisible();
    await expectNoSideScroll(page, 'full-screen preview, zoomed');
    await axe(page, 'full-screen preview on a phone');
    await fullScreen.getByRole('button', { name: 'Close the preview' }).click();
    await expect(fullScreen).toHaveCount(0);
    await expect(forms.preview.getByRole('button', { name: 'View full screen' })).toBeFocused();
    await page.screenshot({ path: '/work/shots/e2e-docs-phone-form-editor.png', fullPage: true });
  });
});
