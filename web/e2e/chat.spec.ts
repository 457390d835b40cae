// The journeys of issue 13 through the real binary: an applicant and their employer hold a
// conversation (the applicant in the browser, the employer's operator with `portal chat reply`, a
// second process on the same database), the maintenance banner set and cleared with `portal banner`
// while the page is open (issue 23: it arrives live), and a company that switched chat off.
import type { Page } from '@playwright/test';
import { expect, expectAccessible, portal, portalCli, test } from './fixtures';
import { ChatPanel } from './pom/chat';
import { LoginPage } from './pom/login-page';
import { inviteSetUpThroughApi } from './pom/api-setup';
import { prefs, restoreCompanyDefaults, setCompanyPref } from './pom/finalization';

const password = 'correct horse battery staple';
const applicant = { firstName: 'Robin', lastName: 'Okafor', lastFour: '6789' };

/** The standard of the new pages: no axe violation of any impact. */
const axe = (page: Page, context: string) => expectAccessible(page, context, { anyImpact: true });

async function logInAsDemo(page: Page) {
  const login = new LoginPage(page);
  await login.goto();
  await login.logIn(portal.demoUsername, portal.demoPassword);
  await expect(page).not.toHaveURL(/\/login$/);
}

// Specs share their worker's server: the demo company keeps chat on and no banner is left behind.
test.afterEach(() => {
  restoreCompanyDefaults();
  portalCli('banner clear');
});

test('an applicant sends a file, the employer replies from the command line, and the reply arrives without a reload', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { subjectId } = await inviteSetUpThroughApi(page, 'robin.chat@example.com', applicant, password);
  const chat = new ChatPanel(page);
  await expect(chat.menuButton).toHaveAccessibleName('User menu');
  await expect(chat.messagesButton).not.toHaveAccessibleName(/unread/);

  // Messages is on the page, keyboard reachable, and the panel names who answers.
  await chat.messagesButton.focus();
  await page.keyboard.press('Enter');
  await chat.dialog.waitFor();
  await expect(chat.dialog).toContainText(/Replies come from the .* hiring team/);
  await expect(chat.dialog.getByText('No messages yet')).toBeVisible();
  await expect(chat.message).toBeFocused();
  await axe(page, 'the empty chat');

  // Shift+Enter is a new line; Enter sends the message with its file.
  await chat.message.fill('Here is my pay stub.');
  await chat.message.press('Shift+Enter');
  await chat.message.pressSequentially('Is this what you need?');
  await chat.fileInput.setInputFiles({
    name: 'pay-stub.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'),
  });
  await chat.message.press('Enter');
  const mine = chat.conversation.getByRole('listitem').filter({ hasText: 'Here is my pay stub.' });
  await expect(mine).toContainText('Is this what you need?');
  await expect(mine.getByRole('button', { name: /pay-stub\.pdf/ })).toBeVisible();
  await expect(mine).toContainText('Sent');
  await expect(chat.message).toHaveValue('');

  // The operator sees it (and reading it marks it read for the applicant).
  const shown = portalCli('chat show', '--subject', String(subjectId));
  expect(shown).toContain('Here is my pay stub.');
  expect(shown).toContain('pay-stub.pdf');
  await expect(mine).toContainText('Read', { timeout: 15_000 });

  await chat.close();
  await expect(chat.messagesButton).toBeFocused();

  // A reply from another process reaches the open page: a toast tells of it, the badges count it,
  // HTML stays text.
  const reply = 'Thanks Robin, that is the one. <b>No need</b> to send more.';
  portalCli('chat reply', '--subject', String(subjectId), '--message', reply, '--as', 'Dana at Acme');
  await expect(chat.newReplyToast).toBeVisible({ timeout: 15_000 });
  await expect(chat.messagesButton).toHaveAccessibleName(/hiring team, 1 unread$/);
  await expect(chat.menuButton).toHaveAccessibleName('User menu, 1 unread message');
  await chat.shell.snackbar.getByRole('button', { name: 'Open' }).click();
  await chat.dialog.waitFor();
  const theirs = chat.conversation.getByRole('listitem').filter({ hasText: 'Dana at Acme' });
  await expect(theirs).toContainText(reply);
  await expect(page.locator('b', { hasText: 'No need' })).toHaveCount(0);
  await axe(page, 'the conversation');

  // The attachment downloads under its name.
  const download = page.waitForEvent('download');
  await mine.getByRole('button', { name: /pay-stub\.pdf/ }).click();
  expect((await download).suggestedFilename()).toBe('pay-stub.pdf');

  // With the chat open, a second reply appears in it as it arrives.
  portalCli('chat reply', '--subject', String(subjectId), '--message', 'One more thing: please check your e-mail.');
  await expect(chat.conversation).toContainText('One more thing: please check your e-mail.', { timeout: 15_000 });

  // Bad input is said next to the field and keeps what was typed.
  await chat.message.fill('x'.repeat(5001));
  await chat.send.click();
  await expect(chat.dialog.getByText('A message is at most 5000 characters.')).toBeVisible();
  await expect(chat.message).toHaveValue('x'.repeat(5001));

  // The open chat read both replies: once it is closed, the badge is gone.
  await chat.close();
  await expect(chat.menuButton).toHaveAccessibleName('User menu');
});

test('the maintenance banner arrives and goes on an open page, and stays dismissed after a reload', async ({
  page,
}) => {
  await logInAsDemo(page);
  const banner = page.getByRole('region', { name: 'Maintenance notice' });
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(banner).toHaveCount(0);

  // Set and cleared by an operator while the page is open: no reload.
  portalCli('banner set', '--message', 'A short restart at 21:00 UTC.');
  await expect(banner).toContainText('A short restart at 21:00 UTC.', { timeout: 10_000 });
  portalCli('banner clear');
  await expect(banner).toHaveCount(0, { timeout: 10_000 });

  const message = 'Scheduled maintenance tonight from 22:00 to 23:00 UTC.';
  portalCli('banner set', '--message', message, '--for', '2h');
  await expect(banner).toContainText(message, { timeout: 10_000 });
  await axe(page, 'the page with the banner');
  await banner.getByRole('button', { name: 'Dismiss' }).click();
  await expect(banner).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Maintenance notice' })).toHaveCount(0);

  // A new banner shows again.
  portalCli('banner set', '--message', 'The portal is back to normal.');
  await page.reload();
  await expect(page.getByRole('region', { name: 'Maintenance notice' })).toContainText('The portal is back to normal.');
});

test('a company with chat off has no Messages on the page nor in the menu', async ({ page }) => {
  setCompanyPref(prefs.chat, 'false');
  await logInAsDemo(page);
  const chat = new ChatPanel(page);
  await chat.shell.openMenu();
  await expect(chat.shell.menuItem('Account')).toBeVisible();
  await expect(chat.menuEntry).toHaveCount(0);
  await expect(chat.messagesButton).toHaveCount(0);
  await expect(chat.menuButton).toHaveAccessibleName('User menu');
});
