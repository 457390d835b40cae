// Issue 24 through the real binary: after submission an operator moves a service with `portal service
// set`, and the applicant's open home page (/) shows it without a reload: the employment check waits on
// them because the former employer does not answer; they follow "Upload a W-2 or pay stub" straight to
// the upload on the same page and send a PDF; the operator marks the check complete and the page
// moves again, now offering a dispute. At 1280 and 360 px, each with its own applicant, and / held
// to "axe-core finds no violation of any impact".
import type { Page, Response } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { expect, expectAccessible, portalCli, test } from './fixtures';
import { DocumentsPage, newApplicantThroughSetup } from './pom/documents';
import { HomeFinalPage } from './pom/finalization';

const OTHER = 'Other supporting document';

const isDocumentUpload = (r: Response) =>
  new URL(r.url()).pathname === '/api/v2/user/profile/documents' && r.request().method() === 'POST';

async function payStub(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([300, 200]).drawText('Pay stub, Acme Logistics, 2025', { x: 20, y: 150, size: 12, font });
  return Buffer.from(await doc.save());
}

/** `portal service set --subject ID ...`, as an operator runs it; its one line of output. */
function setService(subjectId: number, ...flags: string[]): string {
  return portalCli('service set', '--subject', String(subjectId), ...flags);
}

/** The service's row in the list of order services on /. */
function serviceRow(page: Page, name: string) {
  return new HomeFinalPage(page).screening
    .getByRole('list', { name: /^Services of order \d+$/ })
    .getByRole('listitem')
    .filter({ has: page.getByText(name, { exact: true }) });
}

async function expectNoSideScroll(page: Page, width: number, context: string) {
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scroll, `horizontal scroll on ${context}`).toBeLessThanOrEqual(width);
}

for (const width of [1280, 360]) {
  test(`a service waiting on the applicant arrives live, links to the upload, and moves to complete (${width} px)`, async ({
    page,
  }) => {
    test.slow(); // setup signs every document first, and two live round trips follow
    await page.setViewportSize({ width, height: 900 });
    const { subjectId } = await newApplicantThroughSetup(page, `services-${width}-${Date.now()}@example.com`);
    // Submission is the applicant's to make elsewhere (finalization.spec.ts); here the operator puts
    // the order where a submitted one is.
    expect(portalCli('order set', '--subject', String(subjectId), '--status', '2')).toContain(
      'Finalization Complete (2)',
    );
    await page.goto('/');
    const home = new HomeFinalPage(page);
    await expect(home.heading).toBeVisible();
    const employment = serviceRow(page, 'Employment');
    await expect(employment).toContainText('Not started yet');
    await expect(home.screening).toContainText('The checks start shortly.');

    // The operator: the former employer does not answer. The open page shows it, no reload.
    expect(setService(subjectId, '--service', 'emps', '--reason', 'employer-not-responding')).toContain(
      'waiting-applicant, employer-not-responding; expected between',
    );
    await expect(employment).toContainText('Waiting for you');
    const help = employment.getByRole('alert');
    await expect(help).toContainText('Your former employer has not answered yet.');
    await expect(employment).toContainText(/Expected between \w+ \d+, \d{4} and \w+ \d+, \d{4}/);
    await expect(home.screening).toContainText('One check needs something from you: see below.');
    await expect(home.screening).toContainText(/We expect your screening to be complete by \w+ \d+, \d{4}\./);
    await expectNoSideScroll(page, width, `/ at ${width} px`);
    await expectAccessible(page, `/ with a service waiting on the applicant at ${width} px`, { anyImpact: true });

    // Straight to the upload (on / after submission: /additional-documents closes with it), opened
    // and in view, and a pay stub sent.
    await help.getByRole('link', { name: 'Upload a W-2 or pay stub' }).click();
    await expect(page).toHaveURL(/\/#documents$/);
    const upload = page.getByRole('heading', { level: 2, name: 'Documents you can still send' });
    await expect(upload).toBeFocused();
    await expect(upload).toBeInViewport();
    const documents = new DocumentsPage(page);
    const sent = page.waitForResponse(isDocumentUpload);
    await documents.chooseFiles(OTHER, [
      { name: 'pay-stub.pdf', mimeType: 'application/pdf', buffer: await payStub() },
    ]);
    expect((await sent).status()).toBe(201);
    await expect(documents.card(OTHER).getByText('pay-stub.pdf', { exact: true })).toBeVisible();

    // The operator completes the check: it moves while the applicant watches.
    await expect(employment).toContainText('Waiting for you');
    expect(setService(subjectId, '--service', 'emps', '--state', 'complete')).toContain('Employment (emps): complete.');
    await expect(employment).toContainText('Complete');
    await expect(employment.getByRole('alert')).toHaveCount(0);
    await expect(employment).not.toContainText('Expected');
    await expect(employment.getByRole('link', { name: /^Something wrong\? Dispute it/ })).toHaveAttribute(
      'href',
      '/disputes/new?service=emps',
    );
    await expect(home.screening).not.toContainText('needs something from you');
    await expectAccessible(page, `/ with a service complete at ${width} px`, { anyImpact: true });
  });
}
