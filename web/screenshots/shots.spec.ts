// Walks one invitation through the wizard and photographs login, welcome,
// create password, the login step, a legal step and personal information at
// 1280 and 360 px.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, inviteApplicant, test } from '../e2e/fixtures';
import { SetupWizardPage } from '../e2e/pom/setup-wizard';

const dir = process.env.SHOTS_DIR ?? 'test-results/shots';
const widths = [1280, 360];
const password = 'correct horse battery staple';

async function shoot(page: import('@playwright/test').Page, name: string) {
  mkdirSync(dir, { recursive: true });
  for (const width of widths) {
    await page.setViewportSize({ width, height: width > 600 ? 900 : 740 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(dir, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('screens', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
  await shoot(page, 'login');

  await page.goto(inviteApplicant(`shots.${Date.now()}@example.com`, 'Riley', 'Stone'));
  const wizard = new SetupWizardPage(page);
  await expect(wizard.heading()).toHaveText('Welcome');
  await shoot(page, 'welcome');
  await wizard.welcome();
  await expect(wizard.heading()).toHaveText('Create Password');
  await shoot(page, 'password');
  await wizard.createPassword(password);
  await expect(wizard.heading()).toHaveText('Login');
  await shoot(page, 'login-step');
  await wizard.login(password);
  await wizard.residency('Texas');
  await expect(page.locator('#legal-step-heading')).toBeVisible();
  await shoot(page, 'legal');
  await wizard.signAllLegalSteps('Riley', 'Stone', '6789');
  await expect(wizard.heading()).toHaveText('Personal Information');
  await shoot(page, 'personal');
  await page.goto('/ui').catch(() => undefined);
  if (
    await page
      .getByRole('heading', { level: 1 })
      .filter({ hasText: /design system/i })
      .count()
  )
    await shoot(page, 'ui');
});
