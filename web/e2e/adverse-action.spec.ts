// Pre-adverse action through the real binary (issue 24): an applicant who has submitted has `/` open
// when the operator sends the notice with `portal adverse pre`; the card arrives live, the notice
// counts the waiting period down in business days and holds the Summary of Rights; at 1280 and
// 360 px, with axe. The final notice needs the waiting period to pass, which the server's real clock
// cannot do here: the Go tests move a fake clock past it (internal/store/adverse_test.go).
import type { Page } from '@playwright/test';
import { expect, expectAccessible, portalCli, test } from './fixtures';
import { inviteSetUpThroughApi } from './pom/api-setup';
import { ApplicantApi, prefs, restoreCompanyDefaults, setCompanyPref } from './pom/finalization';

const password = 'correct horse battery staple';
const applicant = { firstName: 'Avery', lastName: 'Stone', lastFour: '4321' };

test.afterEach(() => restoreCompanyDefaults());

/**
 * From setup-complete to finalization-complete through the applicant's API and the sandbox
 * provider's own page: the data pages, idv-started, the verification approved, then submitted.
 */
async function submitThroughApi(page: Page) {
  const api = await ApplicantApi.of(page);
  await api.fillDataPages();
  await api.ok('POST', '/api/v2/user/subject/status', { statusId: 3 });
  const user = await api.ok('GET', '/api/v2/user');
  const session = await api.ok('PUT', '/api/v2/idv/session', { subjectId: (user.subject as { id: number }).id });
  const provider = await page.context().newPage();
  await provider.goto(`/sandbox/idv/${String(session.id)}?token=${encodeURIComponent(String(session.token))}`);
  await provider.getByRole('button', { name: 'Use sample document' }).click();
  await provider.getByRole('button', { name: 'Use sample selfie' }).click();
  await provider.getByRole('button', { name: 'Approve (test outcome)' }).click();
  await provider.close();
  await expect
    .poll(async () => (await api.ok('GET', `/api/v2/idv/session/${String(session.id)}`)).decision, { timeout: 20_000 })
    .toBe('approved');
  await api.ok('POST', '/api/v2/user/subject/status', { statusId: 2 });
}

async function expectNoSideScroll(page: Page, context: string) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `horizontal scroll on ${context}`).toBeLessThanOrEqual(360);
}

test('pre-adverse action: the card arrives live on /, the notice counts down in business days, with the rights', async ({
  page,
}) => {
  test.setTimeout(120_000);
  setCompanyPref(prefs.siteSelection, 'false');
  setCompanyPref(prefs.selfPay, '0');
  await page.setViewportSize({ width: 1280, height: 900 });
  const { subjectId } = await inviteSetUpThroughApi(page, `adverse.${Date.now()}@example.com`, applicant, password);
  await submitThroughApi(page);

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: "You're all set" })).toBeVisible();
  const card = page.getByRole('region', { name: /^Before .+ decides, you may respond$/ });
  await expect(card).toHaveCount(0);

  // The operator sends the notice while the page is open: no reload.
  const out = portalCli('adverse pre', '--subject', String(subjectId), '--note', 'The county record of 2019.');
  expect(out).toContain('pre adverse action');
  await expect(card).toBeVisible({ timeout: 15_000 });
  const countdown = /^5 business days left: until \w+day, \w+ \d{1,2}, \d{4}$/;
  await expect(card.getByText(countdown)).toBeVisible();
  await expectAccessible(page, '/ with a pre-adverse notice', { anyImpact: true });

  await card.getByRole('link', { name: 'Read the notice' }).click();
  await expect(page).toHaveURL(/\/adverse-action$/);
  await expect(page.getByRole('heading', { level: 1, name: /^Before .+ decides$/ })).toBeVisible();
  await expect(page.getByText(countdown)).toBeVisible();
  await expect(page.getByText('The county record of 2019.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Read your background check report' })).toHaveAttribute(
    'href',
    '/report',
  );
  await expect(page.getByRole('link', { name: 'Dispute something in the report' })).toBeVisible();
  const rights = page.getByRole('region', { name: 'Your rights' });
  await rights.getByText('Read A Summary of Your Rights Under the Fair Credit Reporting Act').click();
  await expect(rights.getByText(/^SAMPLE TEXT/)).toBeVisible();
  await expect(rights.getByText(/You have the right to dispute incomplete or inaccurate information/)).toBeVisible();
  await expectAccessible(page, '/adverse-action (pre) at 1280 px', { anyImpact: true });

  await page.setViewportSize({ width: 360, height: 740 });
  await page.reload();
  await expect(page.getByText(countdown)).toBeVisible();
  await expectNoSideScroll(page, '/adverse-action');
  await expectAccessible(page, '/adverse-action (pre) at 360 px', { anyImpact: true });
  await page.goto('/');
  await expect(card.getByText(countdown)).toBeVisible();
  await expectNoSideScroll(page, '/ with the notice');
  await expectAccessible(page, '/ with a pre-adverse notice at 360 px', { anyImpact: true });
});
