// History as a timeline and ask once, through the real binary: at 360 px the
// addresses page shows a gap on its coverage bar and its button adds an
// address for exactly those months; a PDF form opens filled in with what the
// portal knows of the demo applicant. Nothing here is saved, and the draft of
// what was typed is discarded, so the demo applicant stays as the other specs
// expect.
import { LoginPage } from './pom/login-page';
import { expect, expectAccessible, portal, test } from './fixtures';

test.beforeEach(async ({ page }) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.logIn(portal.demoUsername, portal.demoPassword);
  await expect(page).not.toHaveURL(/\/login$/);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 800 } });

  test('a gap in the addresses shows on the coverage bar, and tapping it adds an address for exactly those months', async ({
    page,
  }) => {
    const year = new Date().getFullYear();
    await page.goto('/addresses');
    const form = page.getByRole('form', { name: 'Address History' });
    await expect(form).toBeVisible();
    const setMonth = async (group: ReturnType<typeof form.getByRole>, label: RegExp, month: string, y: number) => {
      const field = group.getByRole('group', { name: label });
      await field.getByLabel('Month').fill(month);
      await field.getByLabel('Year').fill(String(y));
    };
    const current = form.getByRole('group', { name: 'Current address' });
    await setMonth(current, /^From/, '1', year - 1);
    await form.getByRole('button', { name: 'Add a previous address' }).click();
    const previous = form.getByRole('group', { name: 'Previous address 1' });
    await setMonth(previous, /^From/, '1', year - 12);
    await setMonth(previous, /^To/, '12', year - 3);

    const range = `Jan ${year - 2} to Dec ${year - 2}`;
    await expect(form.getByText(`Gap: ${range} (12 months)`)).toBeVisible();
    await form.getByRole('button', { name: `Add an address for ${range}` }).click();
    const added = form.getByRole('group', { name: 'Previous address 2' });
    await expect(added.getByLabel(/Street address/)).toBeFocused();
    const from = added.getByRole('group', { name: /^From/ });
    const to = added.getByRole('group', { name: /^To/ });
    await expect(from.getByLabel('Month')).toHaveValue('01');
    await expect(from.getByLabel('Year')).toHaveValue(String(year - 2));
    await expect(to.getByLabel('Month')).toHaveValue('12');
    await expect(to.getByLabel('Year')).toHaveValue(String(year - 2));
    await expect(form.getByText(/^Gap:/)).toHaveCount(0);
    // Nothing wider than the phone.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(page, 'addresses with the coverage bar at 360 px');

    await expect(form.getByRole('status').filter({ hasText: /^Draft saved at/ })).toBeVisible();
    await form.getByRole('button', { name: 'Discard draft' }).click();
    await page
      .getByRole('dialog', { name: 'Discard your draft?' })
      .getByRole('button', { name: 'Discard draft' })
      .click();
    await expect(form.getByRole('button', { name: 'Discard draft' })).toHaveCount(0);
  });
});

test('a PDF form opens filled in with the applicant’s name, date of birth and license, marked and editable', async ({
  page,
}) => {
  await page.goto('/fillable-pdf-form');
  await page.getByRole('button', { name: /^Fill in Motor vehicle record request/ }).click();
  const name = page.getByRole('textbox', { name: /Full name as printed on your license/ });
  await expect(name).toHaveValue('Casey Morgan');
  await expect(name).toHaveAccessibleDescription(/Filled in from your profile/);
  const birth = page.getByRole('group', { name: /Date of birth/ });
  await expect(birth.getByLabel('Day')).toHaveValue('12');
  await expect(birth.getByLabel('Month')).toHaveValue('04');
  await expect(birth.getByLabel('Year')).toHaveValue('1990');
  await expect(page.getByRole('textbox', { name: /Driver's license number/ })).toHaveValue('D1234567');
  await name.fill('Casey J. Morgan');
  await expect(name).toHaveValue('Casey J. Morgan');
  await expect(name).not.toHaveAccessibleDescription(/Filled in/);
});
