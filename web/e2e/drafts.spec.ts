// Drafts on the server (issue 25): what an applicant types and does not submit is kept, sealed, on
// the server; a new login on any device finds it with "Draft saved", "Discard draft" brings back
// the saved values, and the form's own save removes the draft.
import { expect, expectAccessible, portal, test } from './fixtures';
import { inviteSetUpThroughApi } from './pom/api-setup';
import { AddressesPage, dateField, fillDate, monthsAgo } from './pom/data-pages';
import { LoginPage } from './pom/login-page';

const password = 'Drafts-On-The-Server-2026!';
const applicant = { firstName: 'Drew', lastName: 'Draft', lastFour: '6789' };
const draftSaved = /^Draft saved at/;

test('typed and not saved on one device is there after a new login on another, until discarded or saved', async ({
  page,
  browser,
}) => {
  // Two devices and three logins: longer than the default minute on a loaded two-core machine.
  test.setTimeout(120_000);
  const email = `drafts.${Date.now()}@example.com`;
  await inviteSetUpThroughApi(page, email, applicant, password);

  // Desktop: type into personal information and addresses, save neither.
  await page.goto('/personal');
  const personal = page.getByRole('form', { name: 'Personal Information' });
  await personal.getByLabel("Mother's maiden name (optional)").fill('Okafor');
  await expect(personal.getByRole('status').filter({ hasText: draftSaved })).toBeVisible();

  await page.goto('/addresses');
  const addresses = new AddressesPage(page);
  await addresses.field(0, 'Street address').fill('9 Elm St');
  await addresses.field(0, 'City').fill('Austin');
  await addresses.addAddress();
  await addresses.field(1, 'Street address').fill('1 Oak Ave');
  await expect(addresses.form.getByRole('status').filter({ hasText: draftSaved })).toBeVisible();
  // Nothing of it rests in the browser's storage.
  expect(await page.evaluate(() => JSON.stringify(sessionStorage) + JSON.stringify(localStorage))).not.toContain('Elm');
  await page.context().close();

  // A phone: a new context, a new login.
  const phone = await browser.newContext({
    baseURL: portal.baseURL,
    viewport: { width: 360, height: 740 },
    isMobile: true,
    hasTouch: true,
  });
  const mobile = await phone.newPage();
  const login = new LoginPage(mobile);
  await login.goto();
  await login.logIn(email, password);
  await expect(mobile).not.toHaveURL(/\/login/);

  await mobile.goto('/addresses');
  const onPhone = new AddressesPage(mobile);
  await expect(onPhone.field(0, 'Street address')).toHaveValue('9 Elm St');
  await expect(onPhone.field(0, 'City')).toHaveValue('Austin');
  await expect(onPhone.field(1, 'Street address')).toHaveValue('1 Oak Ave');
  await expect(onPhone.form.getByRole('status').filter({ hasText: draftSaved })).toBeVisible();
  await expectAccessible(mobile, 'addresses with a restored draft at 360 px');

  await mobile.goto('/personal');
  const personalOnPhone = mobile.getByRole('form', { name: 'Personal Information' });
  const maiden = personalOnPhone.getByLabel("Mother's maiden name (optional)");
  await expect(maiden).toHaveValue('Okafor');
  await expect(personalOnPhone.getByRole('status').filter({ hasText: draftSaved })).toBeVisible();

  // Discard draft, confirmed: the saved (empty) value is back, and stays back after a reload.
  await personalOnPhone.getByRole('button', { name: 'Discard draft' }).click();
  const dialog = mobile.getByRole('dialog', { name: 'Discard your draft?' });
  await expectAccessible(mobile, 'discard draft dialog');
  await dialog.getByRole('button', { name: 'Discard draft' }).click();
  await expect(maiden).toHaveValue('');
  await mobile.reload();
  await expect(personalOnPhone.getByLabel('First name')).toHaveValue(applicant.firstName);
  await expect(maiden).toHaveValue('');
  await expect(personalOnPhone.getByRole('button', { name: 'Discard draft' })).toHaveCount(0);

  // Finish the address there and save it for later: the save removes the draft.
  await mobile.goto('/addresses');
  await onPhone.field(0, 'State').selectOption({ label: 'Texas' });
  await onPhone.field(0, 'ZIP code').fill('73301');
  await fillDate(dateField(onPhone.address(0), 'From'), monthsAgo(24));
  await onPhone
    .address(1)
    .getByRole('button', { name: /Remove/ })
    .click();
  await onPhone.form.getByRole('button', { name: 'Save for later' }).click();
  await expect(mobile.getByText('Addresses saved', { exact: true })).toBeVisible();
  await expect(onPhone.form.getByRole('button', { name: 'Discard draft' })).toHaveCount(0);
  const drafts = await mobile.evaluate(async () => {
    const session = JSON.parse(sessionStorage.getItem('portal-session') ?? '{}') as { credentials?: { jwt?: string } };
    const res = await fetch('/api/v2/user/drafts', {
      headers: { Authorization: `Bearer ${session.credentials?.jwt}` },
    });
    return ((await res.json()) as { payload: { drafts: Array<{ form: string }> } }).payload.drafts.map((d) => d.form);
  });
  expect(drafts).toEqual([]);
  await mobile.reload();
  await expect(onPhone.field(0, 'Street address')).toHaveValue('9 Elm St');
  await expect(onPhone.form.getByRole('status').filter({ hasText: draftSaved })).toHaveCount(0);
  await phone.close();
});
