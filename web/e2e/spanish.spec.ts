// The whole journey in Spanish (issue 26) on a 360 px phone whose browser asks for Spanish: from the
// invitation link through the setup wizard, the legal steps, the personal information, the profile's
// data pages and identity verification to `/`. Every page is in Spanish (html lang="es-US", its
// heading from the es-US catalogue, read here rather than copied), offers the switch back to
// English, and passes axe. The data the pages are not about goes in through the API, as the other
// journeys do.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures';
import { Client, personalInformation, signEveryStep } from './pom/api-setup';
import { ApplicantApi, bearerToken, prefs, restoreCompanyDefaults, setCompanyPref } from './pom/finalization';
import { inviteToSanFrancisco } from './pom/setup-wizard';

const password = 'correct horse battery staple';
const applicant = { firstName: 'Lucía', lastName: 'Ramírez', lastFour: '6789' };

/** The es-US catalogue, every area in one: what the app shows a Spanish speaker. */
const catalogue: Record<string, string> = Object.assign(
  {},
  ...(() => {
    const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'locales', 'es-US');
    return readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, string>);
  })(),
);

/** The Spanish of a key, placeholders filled; a key the catalogue lacks fails here, by name. */
function es(key: string, values: Record<string, string> = {}): string {
  const message = catalogue[key];
  if (message === undefined) throw new Error(`the es-US catalogue has no ${key}`);
  return message.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** A page as a Spanish speaker gets it: in Spanish, with the way back to English, and accessible. */
async function expectSpanish(page: Page, context: string) {
  await expect(page.locator('html')).toHaveAttribute('lang', 'es-US');
  await expect(page.getByRole('button', { name: 'English', exact: true })).toBeVisible();
  await expectAccessible(page, `${context} (es-US)`);
}

async function expectPageHeading(page: Page, key: string, context: string, values?: Record<string, string>) {
  await expect(page.getByRole('heading', { level: 1, name: es(key, values), exact: true })).toBeVisible({
    timeout: 20_000,
  });
  await expectSpanish(page, context);
}

/** The setup wizard's step, named in its h2 (the h1 names the wizard). */
async function expectSetupStep(page: Page, key: string) {
  await expect(page.locator('#setup-step-heading')).toHaveText(es(key), { timeout: 20_000 });
  await expect(page.getByRole('heading', { level: 1, name: es('setup.title'), exact: true })).toBeVisible();
  await expectSpanish(page, `/setup: ${key}`);
}

// The browser asks for Spanish; nothing else says which language: no cookie yet.
test.use({ locale: 'es-US', viewport: { width: 360, height: 800 }, actionTimeout: 15_000 });

// Specs share one server: whatever the journey changed, the next spec file finds the demo company as seeded.
test.afterEach(() => restoreCompanyDefaults());

test('a Spanish speaker goes from the invitation link to / in Spanish on a phone', async ({ page, request }) => {
  test.setTimeout(240_000);
  // Identity verification straight to the end: the site search and self-pay have journeys of their own.
  setCompanyPref(prefs.siteSelection, 'false');
  setCompanyPref(prefs.selfPay, '0');
  const email = `spanish.${Date.now()}@example.com`;
  const { link } = inviteToSanFrancisco(email, applicant);

  // Setup: the welcome text, the password, the login, where the applicant lives.
  await page.goto(link);
  await expectSetupStep(page, 'setup.step.welcome');
  await page.getByRole('button', { name: es('setup.welcome.next'), exact: true }).click();

  await expectSetupStep(page, 'setup.step.password');
  await page.getByLabel(es('setup.password.label'), { exact: true }).fill(password);
  await page.getByLabel(es('setup.password.confirm'), { exact: true }).fill(password);
  await page.getByRole('button', { name: es('setup.password.submit'), exact: true }).click();

  await expectSetupStep(page, 'setup.step.login');
  await page.getByLabel(es('auth.login.password'), { exact: true }).fill(password);
  await page.getByRole('button', { name: es('auth.login.submit'), exact: true }).click();

  await expect(page.getByRole('heading', { name: es('legal.residency.whereDoYouLive'), exact: true })).toBeVisible();
  await expectSpanish(page, '/setup: residency');
  await page.getByLabel(es('legal.residency.state'), { exact: true }).selectOption({ label: 'Texas' });
  await page.getByRole('button', { name: es('legal.residency.continue'), exact: true }).click();

  // The legal steps: the first one as the applicant sees it, then every one signed through the API.
  await expectSetupStep(page, 'setup.step.legal');
  await expect(page.locator('#legal-step-heading')).toBeVisible();
  // A request context of its own, without the page's locale cookie: signEveryStep reads the server's English.
  const api = new Client(request);
  api.token = await bearerToken(page);
  await signEveryStep(api, applicant);
  await page.reload();

  // The personal information: the form in Spanish, its save through the API, then setup is complete.
  await expectSetupStep(page, 'setup.step.personal');
  await api.ok('PUT', '/api/v2/user', personalInformation(email, applicant));
  await api.ok('POST', '/api/v2/user/subject/status', { statusId: 1 });

  // The profile: the hub, then each data page (filled through the API) and the review.
  await page.goto('/profile');
  await expectPageHeading(page, 'profile.greeting', '/profile', { firstName: applicant.firstName });
  await (await ApplicantApi.of(page)).fillDataPages();
  const dataPages: [string, string][] = [
    ['/aliases', 'history.alias.title'],
    ['/addresses', 'history.address.title'],
    ['/education', 'services.education.title'],
    ['/employment', 'services.employment.title'],
    ['/credential', 'services.credential.title'],
    ['/professional', 'services.professional.title'],
  ];
  for (const [path, key] of dataPages) {
    await page.goto(path);
    await expectPageHeading(page, key, path);
  }
  await page.goto('/confirmation');
  await expectPageHeading(page, 'profile.review.title', '/confirmation');
  await page.getByRole('checkbox', { name: es('profile.review.declaration'), exact: true }).check();
  await page.getByRole('button', { name: es('profile.review.start'), exact: true }).click();

  // Identity verification: the app's pages in Spanish around the provider's own (its sandbox speaks English).
  await expect(page).toHaveURL(/\/idv$/);
  await expectPageHeading(page, 'idv.title', '/idv');
  // The provider's frame, named in Spanish by the app; inside it, the sandbox's own English (pom/finalization.ts).
  const frame = page.frameLocator(`iframe[title="${es('idv.frameTitle')}"]`);
  await frame.getByRole('button', { name: 'Use sample document' }).click();
  await frame.getByRole('button', { name: 'Use sample selfie' }).click();
  await frame.getByRole('button', { name: 'Approve (test outcome)' }).click();
  await expect(page).toHaveURL(/\/idv\/success/, { timeout: 20_000 });
  await expectPageHeading(page, 'idv.success.verifiedTitle', '/idv/success');
  await page.getByRole('button', { name: es('idv.success.continue'), exact: true }).click();

  await expect(page).toHaveURL(/\/$/, { timeout: 20_000 });
  await expectPageHeading(page, 'home.title', '/');
});
