// Photographs the residency question and every legal step (with a message
// shown after touch, a signed step and the paper-forms choice) at 1280 and
// 360 px, for looking at the legal steps before and after a change (not a test):
//   SHOTS_DIR=/tmp/shots npx playwright test -c screenshots/playwright.config.ts legal-shots
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, inviteApplicant, test } from '../e2e/fixtures';
import { SetupWizardPage } from '../e2e/pom/setup-wizard';

const dir = process.env.SHOTS_DIR ?? 'test-results/shots';
const password = 'correct horse battery staple';

async function shoot(page: import('@playwright/test').Page, name: string) {
  mkdirSync(dir, { recursive: true });
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: width > 600 ? 900 : 740 });
    // From the top: sticky bars would otherwise be drawn where the page was scrolled to.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(dir, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

const slug = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40);

test('legal screens', async ({ page }) => {
  const link = inviteApplicant(
    `legal.shots.${Date.now()}@example.com`,
    'Riley',
    'Stone',
    '--work-state',
    'US-CA',
    '--work-county',
    '6075',
  );
  await page.goto(link);
  const wizard = new SetupWizardPage(page);
  await wizard.welcome();
  await wizard.createPassword(password);
  await wizard.login(password);
  await expect(page.getByRole('heading', { name: 'Where do you live?' })).toBeVisible();
  // The login's message would cover the top of the first shots.
  await page.getByRole('button', { name: 'Close' }).first().click();
  await shoot(page, 'residency');
  await wizard.residency('Texas');

  // The consent step with a name that does not match, its message shown after touch.
  const consent = page.getByRole('form', { name: /^Sign: / });
  await consent.getByLabel('First name').fill('Robin');
  await consent.getByLabel('Last name').click();
  await expect(consent.getByText(/must match/)).toBeVisible();
  await shoot(page, 'legal-01-errors');
  await consent.getByLabel('First name').fill('');
  await consent.getByRole('button', { name: 'I do not consent: send me paper forms' }).click();
  await shoot(page, 'legal-01-decline');
  await consent.getByRole('button', { name: 'No, sign electronically' }).click();

  let n = 1;
  await wizard.signAllLegalSteps('Riley', 'Stone', '6789', async (title) => {
    if (n === 2) {
      // A signed step, seen again: its confirmation and the signed copy.
      await page.getByRole('button', { name: 'Back to the first document' }).click();
      await expect(page.getByText(/You signed this on/)).toBeVisible();
      await shoot(page, 'legal-01-signed');
      await page.getByRole('navigation', { name: 'Legal documents' }).getByRole('button').nth(1).click();
    }
    await shoot(page, `legal-${String(n++).padStart(2, '0')}-${slug(title)}`);
  });
  await expect(wizard.heading()).toHaveText('Personal Information');
});
