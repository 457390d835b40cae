// Reminders through the real binary: a reminder's stop link, opened in the browser, stops the
// next ones; the page turns them back on.
import { expect, expectAccessible, inviteApplicant, portal, portalCli, test } from './fixtures';

/** A fixed-offset zone where it is about noon now, so the run never falls in quiet hours. */
function daytimeZone(): string {
  const offset = 12 - new Date().getUTCHours();
  return offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

/**
 * `portal reminders send` with a schedule that makes a reminder due at every run, and how many of the
 * reminders it queued went to `email` (other specs' applicants on this worker's server get theirs too).
 */
function sendReminders(email: string): number {
  const before = remindersTo(email);
  portalCli('reminders send', '--base-url', portal.baseURL, '--reminder-schedule', '1ms', '--reminder-repeat', '1ms');
  return remindersTo(email) - before;
}

/** The reminders in `portal outbox` addressed to `email`, oldest first: each mail starts "--- #", then "To: …". */
function remindersOf(email: string): string[] {
  return portalCli('outbox')
    .split(/^--- #/m)
    .filter((mail) => mail.includes(`\nTo: ${email}\n`) && mail.includes('/reminders/stop?token='));
}

const remindersTo = (email: string) => remindersOf(email).length;

test("a reminder's stop link stops the next reminders, and the page turns them back on", async ({ page, request }) => {
  const email = `remind-${Date.now()}@example.com`;
  const invitation = new URL(inviteApplicant(email, 'Rita', 'Reminder'));
  // The applicant opens the link once: the app sends the browser's zone, as it does after a login.
  const login = await request.get(`/api/user?token=${invitation.searchParams.get('token')}`);
  expect(login.ok()).toBeTruthy();
  const { access_token: token } = (await login.json()) as { access_token: string };
  const zone = await request.put('/api/v2/user/timezone', {
    headers: { Authorization: `Bearer ${token}` },
    data: { timeZone: daytimeZone() },
  });
  expect(zone.ok()).toBeTruthy();

  await expect.poll(() => sendReminders(email)).toBeGreaterThanOrEqual(1);
  const reminder = remindersOf(email).at(-1) ?? '';
  const stopLink = /https?:\/\/\S+\/reminders\/stop\?token=[\w%-]+/.exec(reminder)?.[0];
  expect(stopLink, `no stop link in the reminder:\n${reminder}`).toBeTruthy();

  const { pathname, search } = new URL(stopLink as string);
  await page.goto(pathname + search);
  const heading = page.getByRole('heading', { level: 1, name: "You won't get more reminders." });
  await expect(heading).toBeVisible();
  await expect(heading).toBeFocused();
  await expectAccessible(page, 'reminders stopped');
  expect(sendReminders(email), 'a reminder after the stop').toBe(0);

  await page.getByRole('button', { name: 'Turn reminders back on' }).click();
  await expect(page.getByRole('status')).toContainText('Reminders are back on.');
  await expectAccessible(page, 'reminders resumed');
  expect(sendReminders(email), 'a reminder after turning them back on').toBeGreaterThanOrEqual(1);
});
