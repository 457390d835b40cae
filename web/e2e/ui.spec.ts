// The design system's gallery (/ui) and the brand and trust cues of the
// public pages, through the real binary.
import { expect, expectAccessible, test } from './fixtures';

test('the /ui page shows every component and passes axe, collapsed stepper included', async ({ page }) => {
  await page.goto('/ui');
  await expect(page.getByRole('heading', { level: 1, name: 'Design system' })).toBeVisible();
  for (const section of [
    'Buttons',
    'Text fields',
    'Checkboxes and radio buttons',
    'Alerts and error summary',
    'Stepper',
    'Dialog',
    'The form pattern',
  ]) {
    await expect(page.getByRole('heading', { level: 2, name: section, exact: true })).toBeVisible();
  }
  // The narrow stepper shows its one line; the wide one its row.
  await expect(page.getByTestId('stepper-compact').nth(1)).toBeVisible();
  await expect(page.getByTestId('stepper-compact').nth(0)).toBeHidden();
  // One h1 (the sample page header is an h2) and headings in order: axe's moderate rules too.
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
  await expectAccessible(page, '/ui', { moderate: true });

  // The form pattern: a refused save lands on the fields, the first focused; the rest in the summary.
  const form = page.getByRole('form', { name: 'Example form' });
  await form.getByRole('button', { name: 'Simulate a refused save' }).click();
  await expect(form.getByLabel('First name')).toBeFocused();
  await expect(form.getByText('The first name may not contain digits.')).toBeVisible();
  await expect(form.getByText('This e-mail address is already used by another applicant.')).toBeVisible();
  await expect(form.getByRole('alert')).toContainText('The company no longer accepts changes.');
  await expectAccessible(page, '/ui after a refused save');
});

test('the login page shows the brand, the trust panel and the support footer, at phone width too', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/login');
  // The brand in the top bar, as on every page, logged in or out.
  await expect(page.getByRole('banner').getByTestId('brand-wordmark')).toHaveText('ClearPath Screening');
  await expect(page.getByRole('complementary', { name: 'About this screening' })).toBeVisible();
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByRole('link', { name: 'support@clearpath.example' })).toHaveAttribute(
    'href',
    'mailto:support@clearpath.example',
  );
  await expect(footer.getByRole('link', { name: 'Privacy policy' })).toBeVisible();
  // Nothing wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'text');
  await expect(page.getByRole('button', { name: 'Hide password' })).toBeVisible();
  await expectAccessible(page, '/login at 360 px', { moderate: true });
});

test("the footer's privacy link opens the demo's sample privacy notice, which names the provider", async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Privacy policy' }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy notice' })).toBeVisible();
  await expect(page.getByText(/SAMPLE TEXT/)).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Who sees it' })).toBeVisible();
  await expect(page.getByText(/You, the employer who invited you, and ClearPath Screening/)).toBeVisible();
  await expectAccessible(page, '/privacy', { moderate: true });
});
