// Continue on another device (issue 25): half the addresses typed at a desktop, the tab closed, the
// handoff link opened on a 360 px phone, signed in on the same page with everything typed there, the
// addresses finished and saved on the phone; the same link opened again is refused with a clear page.
import type { Browser } from '@playwright/test';
import { expect, expectAccessible, portal, test } from './fixtures';
import { inviteSetUpThroughApi } from './pom/api-setup';
import { AppShell } from './pom/app-shell';
import { AddressesPage, dateField, fillDate, monthsAgo } from './pom/data-pages';

const password = 'Continue-On-My-Phone-2026!';
const applicant = { firstName: 'Hana', lastName: 'Okoye', lastFour: '6789' };
const draftSaved = /^Draft saved at/;

const phoneContext = (browser: Browser) =>
  browser.newContext({
    baseURL: portal.baseURL,
    viewport: { width: 360, height: 740 },
    isMobile: true,
    hasTouch: true,
  });

test('addresses half typed at a desktop are finished on a phone through the handoff link, which works once', async ({
  page,
  browser,
}) => {
  const email = `handoff.${Date.now()}@example.com`;
  await inviteSetUpThroughApi(page, email, applicant, password);

  // Desktop: the current address typed, the previous one begun; nothing submitted.
  await page.goto('/addresses');
  const desktop = new AddressesPage(page);
  await desktop.field(0, 'Street address').fill('12 Birch Rd');
  await desktop.field(0, 'City').fill('Dallas');
  await desktop.field(0, 'State').selectOption({ label: 'Texas' });
  await desktop.field(0, 'ZIP code').fill('75201');
  await fillDate(dateField(desktop.address(0), 'From'), monthsAgo(30));
  await desktop.addAddress();
  await desktop.field(1, 'Street address').fill('400 Pine St');
  await expect(desktop.form.getByRole('status').filter({ hasText: draftSaved })).toBeVisible();

  // "Continue on your phone" shows a QR code and the link of this page.
  const shell = new AppShell(page);
  await shell.openMenu();
  await shell.menuItem('Continue on your phone').click();
  const dialog = page.getByRole('dialog', { name: 'Continue on your phone' });
  await expect(dialog.getByRole('img', { name: /QR code/ })).toBeVisible();
  await expectAccessible(page, 'continue on your phone dialog', { anyImpact: true });
  const link = await dialog.getByRole('textbox', { name: 'Or copy the link' }).inputValue();
  expect(link).toMatch(/\/continue\?token=/);
  await page.context().close();

  // The phone opens the link: signed in, on /addresses, with everything typed at the desktop.
  const phone = await phoneContext(browser);
  const mobile = await phone.newPage();
  await mobile.goto(link);
  await expect(mobile).toHaveURL(/\/addresses$/);
  const onPhone = new AddressesPage(mobile);
  await expect(onPhone.field(0, 'Street address')).toHaveValue('12 Birch Rd');
  await expect(onPhone.field(0, 'City')).toHaveValue('Dallas');
  await expect(onPhone.field(0, 'ZIP code')).toHaveValue('75201');
  await expect(onPhone.field(1, 'Street address')).toHaveValue('400 Pine St');
  await expectAccessible(mobile, 'addresses opened from a handoff link at 360 px', { anyImpact: true });

  // Finish there: the previous address completed back past the seven years, then saved.
  await onPhone.field(1, 'City').fill('Houston');
  await onPhone.field(1, 'State').selectOption({ label: 'Texas' });
  await onPhone.field(1, 'ZIP code').fill('77002');
  await fillDate(dateField(onPhone.address(1), 'From'), monthsAgo(12 * 8));
  await fillDate(dateField(onPhone.address(1), 'To'), monthsAgo(30));
  await onPhone.saveAndContinue();
  await expect(mobile).not.toHaveURL(/\/addresses$/);
  await mobile.goto('/addresses');
  await expect(onPhone.field(1, 'City')).toHaveValue('Houston');
  await expect(onPhone.form.getByRole('button', { name: 'Discard draft' })).toHaveCount(0);
  await phone.close();

  // The same link again, on a third device: refused, saying why and what to do.
  const third = await phoneContext(browser);
  const replay = await third.newPage();
  await replay.goto(link);
  const heading = replay.getByRole('heading', { level: 1, name: 'This link has already been used' });
  await expect(heading).toBeFocused();
  await expect(replay.getByRole('link', { name: 'Log in' })).toBeVisible();
  await expectAccessible(replay, 'a used handoff link', { anyImpact: true });
  await third.close();
});
