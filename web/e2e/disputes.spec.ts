// The report-and-dispute journey of issue 24 through the real binary, on a phone: an operator
// attaches the report with `portal report upload`; the applicant (submitted through the API and the
// identity-verification sandbox) confirms who they are, reads the report in the viewer, and from it
// disputes one service with a PDF as evidence; the operator answers and resolves it with
// `portal dispute`, and the applicant's open page shows each step as it happens. axe on every new
// page at 360 and 1280 px.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures';
import { DisputeFormPage, DisputePage, disputeCli } from './pom/disputes';
import { attachReport } from './pom/documents';
import { ApplicantApi, restoreCompanyDefaults } from './pom/finalization';
import { ReportPage, reportApplicant, reportApplicantDob, submittedApplicant } from './pom/report';

const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

/** The standard of the new pages: no axe violation of any impact. */
const axe = (page: Page, context: string) => expectAccessible(page, context, { anyImpact: true });

async function expectNoSideScroll(page: Page, context: string) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `horizontal scroll on ${context}`).toBeLessThanOrEqual(page.viewportSize()?.width ?? 360);
}

test.use({ actionTimeout: 15_000 });
test.afterEach(() => restoreCompanyDefaults());

test('on a phone an applicant reads the report after confirming who they are, disputes one service from it with a PDF, and sees the operator answer and resolve it live', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 360, height: 780 });
  const { subjectId } = await submittedApplicant(page, `disputes.${Date.now()}@example.com`);
  const folder = mkdtempSync(join(tmpdir(), 'portal-disputes-'));
  const report = join(folder, 'report.pdf');
  writeFileSync(report, pdf);
  attachReport(subjectId, 'report', report);

  const service = (
    (await (await ApplicantApi.of(page)).ok('GET', '/api/v2/user')) as {
      packageServices: { code: string; name: string }[];
    }
  ).packageServices[0];

  // The card on / names no dispute yet and offers one.
  const card = page.getByRole('region', { name: 'Disputes' });
  await expect(card.getByText('If something in your report is wrong, you can dispute it.')).toBeVisible();
  await axe(page, '/ with the Disputes card at 360 px');

  // The report first: it opens once the applicant confirms who they are.
  await page.getByRole('link', { name: 'Read your background report' }).click();
  const reportPage = new ReportPage(page);
  await reportPage.confirm(reportApplicantDob, reportApplicant.lastFour);
  await expect(reportPage.viewer).toBeVisible();
  await expectNoSideScroll(page, '/report');

  // From the report: the applicant picks the service the dispute is about.
  await page.getByRole('link', { name: 'Dispute something in this report' }).click();
  const form = new DisputeFormPage(page);
  await expect(form.heading).toBeFocused();
  await form.part(service.name).check();
  await axe(page, '/disputes/new at 360 px');
  await expectNoSideScroll(page, '/disputes/new');

  // Nothing answered: the summary names each question.
  await form.continue.click();
  const problems = page.getByRole('alert');
  await expect(problems.getByRole('link', { name: 'What is wrong?' })).toBeVisible();
  await expect(problems.getByRole('link', { name: 'Explain what is wrong' })).toBeVisible();
  await axe(page, '/disputes/new with errors at 360 px');

  await form.reason(/It is wrong/).check();
  const explanation = 'The record lists a conviction in Travis County.\nThat case was dismissed in 2019.';
  await form.explanation.fill(explanation);
  await expect(page.getByText(`You have ${5000 - explanation.length} characters remaining`)).toBeVisible();
  await form.evidence.setInputFiles({ name: 'dismissal.pdf', mimeType: 'application/pdf', buffer: pdf });
  await expect(page.getByRole('button', { name: 'Remove dismissal.pdf' })).toBeVisible();
  await form.continue.click();

  await expect(form.checkHeading).toBeFocused();
  await expect(page.getByText('dismissal.pdf')).toBeVisible();
  await axe(page, 'check answers at 360 px');
  await expectNoSideScroll(page, 'check answers');
  const sent = page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/api/v2/user/disputes' && r.request().method() === 'POST',
  );
  await form.send.click();
  const created = (await (await sent).json()) as { id: number; files: { name: string }[] };
  expect((await sent).status()).toBe(201);
  expect(created.files.map((f) => f.name)).toEqual(['dismissal.pdf']);

  const dispute = new DisputePage(page);
  await expect(page).toHaveURL(new RegExp(`/disputes/${created.id}$`));
  await expect(dispute.heading(service.name)).toBeVisible();
  await expect(dispute.current()).toContainText('Received');
  await expect(dispute.progress).toContainText('30 days left');
  await expect(dispute.addInformation).toContainText('up to 45 days');
  await axe(page, '/disputes/:id at 360 px');
  await expectNoSideScroll(page, '/disputes/:id');

  // The operator reads it whole, answers, and the open page moves without a reload.
  const shown = disputeCli('show', '--id', String(created.id));
  expect(shown).toContain('That case was dismissed in 2019.');
  expect(shown).toContain('dismissal.pdf');
  disputeCli('answer', '--id', String(created.id), '--message', 'We asked the Travis County court for the record.');
  await expect(dispute.current()).toContainText('Being looked into', { timeout: 15_000 });
  await expect(dispute.messages).toContainText('We asked the Travis County court for the record.');

  disputeCli(
    'resolve',
    '--id',
    String(created.id),
    '--outcome',
    'corrected',
    '--message',
    'The court confirmed the dismissal; the report is corrected.',
  );
  await expect(dispute.progress.getByRole('status')).toContainText('The outcome: Corrected', { timeout: 15_000 });
  await expect(dispute.progress).toContainText('The court confirmed the dismissal; the report is corrected.');
  await expect(dispute.addInformation).toHaveCount(0);
  await axe(page, 'a resolved dispute at 360 px');

  // The list, at both sizes; the resolved dispute leaves the card of /.
  await page.goto('/disputes');
  await expect(page.getByRole('heading', { level: 1, name: 'Your disputes' })).toBeFocused();
  await expect(page.getByRole('link', { name: `Dispute of the ${service.name} check` })).toBeVisible();
  await expect(page.getByText('Resolved: Corrected')).toBeVisible();
  await axe(page, '/disputes at 360 px');
  await page.setViewportSize({ width: 1280, height: 900 });
  await axe(page, '/disputes at 1280 px');
  await page.goto(`/disputes/${created.id}`);
  await expect(dispute.heading(service.name)).toBeVisible();
  await axe(page, '/disputes/:id at 1280 px');
  // From a service (its link carries ?service=CODE): that service is chosen.
  await page.goto(`/disputes/new?service=${service.code}`);
  await expect(form.heading).toBeVisible();
  await expect(form.part(service.name)).toBeChecked();
  await axe(page, '/disputes/new at 1280 px');
  await page.goto('/');
  await expect(card.getByRole('link', { name: 'See all your disputes' })).toBeVisible();
  await axe(page, '/ at 1280 px');
});
