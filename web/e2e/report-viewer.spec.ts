// Issue 24's report through the real binary: the operator attaches a background report with
// `portal report upload` while the applicant's / is open, and it appears there without a reload; the
// applicant confirms who they are (a wrong answer first, which says so), reads the report in the
// pdf.js viewer as wide as the screen, and downloads it; `portal report views` lists the view and the
// download. At 1280 px and on a 360 px phone, axe on the confirmation and the viewer.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { expect, expectAccessible, portalCli, test } from './fixtures';
import { attachReport, downloadedBytes } from './pom/documents';
import { ReportPage, reportApplicant, reportApplicantDob, submittedApplicant } from './pom/report';

/** No axe violation of any impact, once the loading bar has gone. */
async function axe(page: Page, context: string) {
  await expect(page.getByRole('progressbar', { name: 'Loading' })).toHaveCount(0);
  await expectAccessible(page, context, { anyImpact: true });
}

/** A real two-page PDF. */
async function makeReport(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const n of [1, 2]) {
    doc
      .addPage([612, 792])
      .drawText(`Background report, page ${n}: no records found.`, { x: 50, y: 700, size: 14, font });
  }
  return Buffer.from(await doc.save());
}

test.use({ actionTimeout: 15_000 });
test.describe.configure({ timeout: 120_000 });

for (const viewport of [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 360, height: 740 },
]) {
  test(`${viewport.name}: the report attached appears live, opens after a wrong then a right answer, reads at the screen's width and downloads`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const { subjectId } = await submittedApplicant(page, `report24.${viewport.name}.${Date.now()}@example.com`);
    const readLink = page.getByRole('link', { name: 'Read your background report' });
    await expect(readLink).toHaveCount(0);

    const dir = mkdtempSync(join(tmpdir(), 'portal-e2e-report24-'));
    const report = await makeReport();
    try {
      const file = join(dir, 'report.pdf');
      writeFileSync(file, report);
      expect(attachReport(subjectId, 'report', file)).toContain(`as report of applicant ${subjectId}.`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // Live: the event stream brings it, no reload.
    await expect(readLink).toBeVisible({ timeout: 15_000 });
    await readLink.click();

    const reportPage = new ReportPage(page);
    await expect(page).toHaveURL(/\/report$/);
    await expect(reportPage.heading).toHaveText('Your background report');
    await expect(reportPage.form).toBeVisible();
    await expect(reportPage.ssn).toHaveAttribute('inputmode', 'numeric');
    await axe(page, `${viewport.name}: the identity confirmation`);

    await reportPage.confirm(reportApplicantDob, '0000');
    await expect(reportPage.form.getByText(/these do not match\. 4 tries left/).first()).toBeVisible();
    await axe(page, `${viewport.name}: the confirmation after a wrong answer`);

    await reportPage.confirm(reportApplicantDob, reportApplicant.lastFour);
    await expect(page.getByText('2 pages')).toBeVisible();
    const firstPage = page.getByRole('img', { name: 'Page 1 of 2' });
    await expect(firstPage).toBeVisible();
    const region = await reportPage.pages.boundingBox();
    const canvas = await firstPage.boundingBox();
    expect(canvas?.width ?? 0, 'the page is as wide as the viewer').toBeGreaterThanOrEqual((region?.width ?? 0) - 20);
    if (viewport.width === 360) expect(canvas?.width ?? 0, 'the page fills the phone').toBeGreaterThanOrEqual(300);
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth, 'no sideways scroll').toBeLessThanOrEqual(viewport.width);
    await expect(page.getByRole('link', { name: 'Dispute something in this report' })).toHaveAttribute(
      'href',
      '/disputes/new',
    );
    await axe(page, `${viewport.name}: the viewer`);

    // Zoom scrolls inside the viewer, never the page.
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect(page.getByText('150%')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

    const started = page.waitForEvent('download');
    await reportPage.download.click();
    const download = await started;
    expect(download.suggestedFilename()).toMatch(/^background-report-.+\.pdf$/);
    expect((await downloadedBytes(download)).equals(report), 'the report as the operator attached it').toBe(true);

    const views = portalCli('report views', '--subject', String(subjectId));
    expect(views).toMatch(/\sreport\s+viewed\s/);
    expect(views).toMatch(/\sreport\s+downloaded\s/);
  });
}
