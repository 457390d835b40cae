// Forms against the real server: where a refused save puts the applicant,
// the phones as saved, and /login for someone already logged in.
import { PersonalFormPage } from './pom/personal-form';
import { LoginPage } from './pom/login-page';
import { expect, expectAccessible, portal, test } from './fixtures';

test.beforeEach(async ({ page }) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.logIn(portal.demoUsername, portal.demoPassword);
  await expect(page).not.toHaveURL(/\/login$/);
});

test('a save the server refuses moves focus to the first field in error, its message shown once', async ({ page }) => {
  const personal = new PersonalFormPage(page);
  await page.goto('/personal');
  await expect(personal.form).toBeVisible();
  // The demo applicant signed with an SSN ending in 6789: a valid SSN ending otherwise passes the
  // form's own checks, and only the server, which knows the signatures, refuses it.
  await personal.field('Social Security number').fill('123-45-1111');
  await personal.field('Confirm Social Security number').fill('123-45-1111');
  await personal.save();

  const ssn = personal.field('Social Security number');
  await expect(ssn).toBeFocused();
  await expect(ssn).toHaveAttribute('aria-invalid', 'true');
  const message = personal.form.getByText(/This SSN does not end in 6789/);
  await expect(message).toHaveCount(1);
  await expect(page.getByText(/This SSN does not end in 6789/)).toHaveCount(1);
  await expect(personal.summary.getByRole('link', { name: 'Social Security number' })).toBeVisible();
  await expectAccessible(page, 'personal form after a refused save');
  // What was typed is kept as a draft on the server (issue 25), where the demo applicant's next tests
  // would find the refused SSN: discarded.
  await personal.form.getByRole('button', { name: 'Discard draft' }).click();
  await page
    .getByRole('dialog', { name: 'Discard your draft?' })
    .getByRole('button', { name: 'Discard draft' })
    .click();
  await expect(personal.form.getByRole('button', { name: 'Discard draft' })).toHaveCount(0);
});

test('phones come back formatted and in their own fields after saving', async ({ page }) => {
  const personal = new PersonalFormPage(page);
  await page.goto('/personal');
  await expect(personal.field('Daytime phone number')).toHaveValue('(202) 456-1111');
  // The demo applicant has no evening phone of their own: the server's fallback is not shown as one.
  await expect(personal.field('Evening phone number (optional)')).toHaveValue('');
  await personal.save();
  await expect(page.getByText('Personal Information saved', { exact: true })).toBeVisible();
  // The save goes on to the next thing to do; the page read afresh shows what was saved.
  await expect(page).not.toHaveURL(/\/personal$/);

  await page.goto('/personal');
  await expect(personal.field('Daytime phone number')).toHaveValue('(202) 456-1111');
  await expect(personal.field('Evening phone number (optional)')).toHaveValue('');
});

test('a logged-in applicant visiting /login goes on to their page', async ({ page }) => {
  const after = new URL(page.url()).pathname;
  await page.goto('/login');
  await expect(page).toHaveURL(new RegExp(`${after}$`));
  await expect(page.getByRole('form', { name: 'Login' })).toHaveCount(0);
});
