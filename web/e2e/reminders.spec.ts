// Reminders through the real binary: a reminder's stop link, opened in the browser, stops the
// next ones; the page turns them back on.
import { expect, expectAccessible, inviteApplicant, portal, portalCli, test } from './fixtures';

/** A fixed-offset zone where it is about noon now, so the run never falls in quiet hours. */
function daytimeZone(): string {
  const offset = 12 - new Date().getUTCHours();
  return offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

/** `portal reminders send` with a schedule that makes a reminder due at every run. */
function sendReminders(): number {
  const out = portalCli(
    'reminders send',
    '--base-url',
    portal.baseURL,
    '--reminder-schedule',
    '1ms',
    '--reminder-repeat',
    '1ms',
  );
  return Number(/Queued (\d+)/.exec(out)?.[1]);
}

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

  await expect.poll(() => sendReminders()).toBeGreaterThanOrEqual(1);
  const outbox = portalCli('outbox');
  const links = [...outbox.matchAll(/https?:\/\/\S+\/reminders\/stop\?token=[\w%-]+/g)].map((m) => m[0]);
  const stopLink = links.find((link) => outbox.slice(0, outbox.indexOf(link)).includes(email)) ?? links.at(-1);
  expect(stopLink, `no stop link in the outbox:\n${outbox}`).toBeTruthy();

  const { pathname, search } = new URL(stopLink as string);
  await page.goto(pathname + search);
  const heading = page.getByRole('heading', { level: 1, name: "You won't get more reminders." });
  await expect(heading).toBeVisible();
  await expect(heading).toBeFocused();
  await expectAccessible(page, 'reminders stopped');
  expect(sendReminders(), 'a reminder after the stop').toBe(0);

  await page.getByRole('button', { name: 'Turn reminders back on' }).click();
  await expect(page.getByRole('status')).toContainText('Reminders are back on.');
  await expectAccessible(page, 'reminders resumed');
  expect(sendReminders(), 'a reminder after turning them back on').toBeGreaterThanOrEqual(1);
});
