// Sign-in without a dead end, through the real binary (issue 25): a link that no longer works leads
// to a page that says what happened and sends a new one (an invitation: /login, where the spec's token
// guard sends it; a reset link: /new-link; the new link read here from `portal outbox`), and
// /login signs in with a one-time code from the e-mail, once.
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, expectAccessible, inviteApplicant, portalCli, test } from './fixtures';
import { inviteSetUpThroughApi } from './pom/api-setup';
import { AppShell } from './pom/app-shell';
import { LoginPage } from './pom/login-page';
import { SetupWizardPage } from './pom/setup-wizard';

const password = 'Signin-e2e-password-2026!';

// A password hash or two per test and several axe passes: more than the default on 2 cores.
test.setTimeout(120_000);

/** The mails `portal outbox` holds for one address, oldest first: each one's subject and body. */
function mailsTo(email: string): { subject: string; body: string }[] {
  return portalCli('outbox')
    .split(/^--- #\d+ .*$/m)
    .slice(1)
    .filter((mail) => mail.includes(`\nTo: ${email}\n`))
    .map((mail) => {
      const subject = /^Subject: (.*)$/m.exec(mail)?.[1] ?? '';
      return { subject, body: mail.slice(mail.indexOf(`Subject: ${subject}`) + subject.length + 9) };
    });
}

/** Every link to PATH (`/setup`, `/reset`) in the mails to one address, oldest first, as a path and query. */
function linksTo(email: string, path: string): string[] {
  const pattern = new RegExp(`https?://\\S+${path}\\?token=[\\w%-]+`, 'g');
  return mailsTo(email).flatMap((mail) =>
    [...mail.body.matchAll(pattern)].map((m) => {
      const url = new URL(m[0]);
      return url.pathname + url.search;
    }),
  );
}

/** The six digits of the newest sign-in code mailed to one address. */
function latestCode(email: string): string {
  const mail = mailsTo(email)
    .filter((m) => m.subject === 'Your applicant portal sign-in code')
    .at(-1);
  const code = mail && /^\s*(\d{6})\s*$/m.exec(mail.body)?.[1];
  expect(code, `no sign-in code mailed to ${email}:\n${portalCli('outbox')}`).toBeTruthy();
  return code as string;
}

/** GET /api/v2/links/status: what the server says about a link now. */
async function linkState(request: APIRequestContext, kind: 'invitation' | 'reset', token: string) {
  const answer = await request.get(`/api/v2/links/status?kind=${kind}&token=${encodeURIComponent(token)}`);
  expect(answer.ok()).toBeTruthy();
  return ((await answer.json()) as { state: string }).state;
}

/** An invited applicant who has chosen a password through the API (the invitation is then used). */
async function applicantWithPassword(request: APIRequestContext, email: string, firstName: string) {
  const invitation = new URL(inviteApplicant(email, firstName, 'Signin'));
  const setup = await request.get(`/api/user?token=${invitation.searchParams.get('token')}`);
  expect(setup.status()).toBe(200);
  const { access_token } = (await setup.json()) as { access_token: string };
  const created = await request.patch('/api/v2/user', {
    data: { password },
    headers: { Authorization: `Bearer ${access_token}` },
  });
  expect(created.status()).toBe(200);
  return invitation.pathname + invitation.search;
}

/** The title of what happened to the link (/new-link's h1, or /login's h2): focused on arrival. */
async function expectNewLinkTitle(page: Page, name: string, level = 1) {
  const title = page.getByRole('heading', { level, name });
  await expect(title).toBeVisible();
  await expect(title).toBeFocused();
}

test('an expired invitation explains itself, sends a new link, and the new link opens setup to create a password', async ({
  page,
  request,
}) => {
  const email = `signin.expired.${Date.now()}@example.com`;
  const link = new URL(inviteApplicant(email, 'Nia', 'Newlink', '--invite-ttl', '1s'));
  const token = link.searchParams.get('token') as string;
  await expect.poll(() => linkState(request, 'invitation', token), { timeout: 10_000 }).toBe('expired');

  // The spec's token guard sends a refused invitation to /login, which says what happened to it.
  await page.goto(link.pathname + link.search);
  await expect(page).toHaveURL(/\/login$/);
  await expectNewLinkTitle(page, 'Your invitation link no longer works', 2);
  await expect(page.getByText('This invitation link has expired.', { exact: false })).toBeVisible();
  await expect(page.getByText('We can send a new link to the e-mail address we have on file for you.')).toBeVisible();
  await expectAccessible(page, 'login: expired invitation', { moderate: true });

  const before = linksTo(email, '/setup');
  await page.getByRole('button', { name: 'Send me a new link' }).click();
  const sent = page.getByRole('heading', { level: 2, name: 'Check your e-mail' });
  await expect(sent).toBeFocused();
  await expect(page.getByRole('status')).toHaveText(
    /A new link is on its way to the e-mail address we have on file for you\./,
  );
  await expectAccessible(page, 'new link: sent', { moderate: true });

  const after = linksTo(email, '/setup');
  expect(after.length, 'a new invitation in the outbox').toBe(before.length + 1);
  const fresh = after.at(-1) as string;
  expect(fresh).not.toContain(token);

  await page.goto(fresh);
  await expect(page).toHaveURL(/\/setup\?token=/);
  const wizard = new SetupWizardPage(page);
  await wizard.welcome();
  await wizard.createPassword(password);
  await wizard.login(password);
  await expect(page.getByRole('heading', { name: 'Where do you live?' })).toBeVisible();
  // The expired link stays expired: the new one is the way in.
  expect(await linkState(request, 'invitation', token)).not.toBe('valid');
});

test('an invitation already used says so and sends a reset link, as the account has a password', async ({
  page,
  request,
}) => {
  const email = `signin.used.${Date.now()}@example.com`;
  const invitation = await applicantWithPassword(request, email, 'Uma');

  await page.goto(invitation);
  await expect(page).toHaveURL(/\/login$/);
  await expectNewLinkTitle(page, 'Your invitation link no longer works', 2);
  await expect(page.getByText(/This invitation link was already used to create a password\./)).toBeVisible();
  await expectAccessible(page, 'new link: used invitation', { moderate: true });

  await page.getByRole('button', { name: 'Send me a new link' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Check your e-mail' })).toBeFocused();
  expect(linksTo(email, '/setup'), 'no new invitation for an account with a password').toHaveLength(1);
  expect(linksTo(email, '/reset'), 'a reset link instead').toHaveLength(1);
});

test('a spent reset link leads to /new-link?kind=reset, and the new reset link sets a password', async ({
  page,
  request,
}) => {
  const email = `signin.reset.${Date.now()}@example.com`;
  await applicantWithPassword(request, email, 'Remy');
  expect((await request.post('/api/user/password/reset', { data: { username: email } })).ok()).toBeTruthy();
  const [spent] = linksTo(email, '/reset');
  expect(spent, `no reset link in the outbox:\n${portalCli('outbox')}`).toBeTruthy();
  const spentToken = new URLSearchParams(spent.split('?')[1]).get('token') as string;
  const used = await request.post('/api/user/password/reset/confirm', {
    data: { token: spentToken, password: 'Second-password-2026!' },
  });
  expect(used.ok()).toBeTruthy();

  await page.goto(spent);
  await expect(page).toHaveURL(/\/new-link\?kind=reset&token=/);
  await expectNewLinkTitle(page, 'Your password reset link no longer works');
  await expect(page.getByText('This password reset link was already used. Each link works once.')).toBeVisible();
  await expectAccessible(page, 'new link: used reset link', { moderate: true });

  await page.getByRole('button', { name: 'Send me a new link' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Check your e-mail' })).toBeFocused();
  const links = linksTo(email, '/reset');
  expect(links, 'a new reset link in the outbox').toHaveLength(2);
  expect(links[1]).not.toBe(spent);

  await page.goto(links[1]);
  await expect(page.getByRole('heading', { name: 'Set a new password' })).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill('Third-password-2026!');
  await page.getByLabel('Confirm new password').fill('Third-password-2026!');
  await page.getByRole('button', { name: 'Set Password' }).click();
  await expect(page.getByText('Your password has been changed.', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('/new-link without a link asks for the address, says the same for one nobody has, and sends nothing', async ({
  page,
}) => {
  await page.goto('/new-link');
  await expectNewLinkTitle(page, 'Get a new link');
  const field = page.getByLabel('E-mail', { exact: true });
  await page.getByRole('button', { name: 'Send me a new link' }).click();
  await expect(field).toBeFocused();
  await expect(field).toHaveAccessibleDescription(/Enter your e-mail address/);
  await field.fill('not-an-address');
  await page.getByRole('button', { name: 'Send me a new link' }).click();
  await expect(field).toHaveAccessibleDescription(/Enter an e-mail address in the correct format/);
  await expectAccessible(page, 'new link: asks for the address, with an error', { moderate: true });

  const nobody = `signin.nobody.${Date.now()}@example.com`;
  await field.fill(nobody);
  await page.getByRole('button', { name: 'Send me a new link' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Check your e-mail' })).toBeFocused();
  await expect(page.getByRole('status')).toHaveText(/If we know this address, a new link is on its way\./);
  expect(mailsTo(nobody)).toHaveLength(0);
});

test('a one-time code from the e-mail signs in once; a wrong code is told at the field', async ({ page, request }) => {
  const email = `signin.code.${Date.now()}@example.com`;
  await inviteSetUpThroughApi(page, email, { firstName: 'Cody', lastName: 'Code', lastFour: '4321' }, password);
  await new AppShell(page).logOut();

  const login = new LoginPage(page);
  await login.goto();
  await page.getByRole('button', { name: 'Email me a sign-in code' }).click();
  const form = page.getByRole('form', { name: 'Sign in with a code' });
  await expect(form).toBeVisible();
  const address = form.getByLabel('E-mail', { exact: true });
  await expect(address).toBeFocused();
  await form.getByRole('button', { name: 'Email me a sign-in code' }).click();
  await expect(address).toHaveAccessibleDescription(/Enter your e-mail address/);
  await expectAccessible(page, 'code sign-in: the address, with an error', { moderate: true });
  await address.fill(email);
  await form.getByRole('button', { name: 'Email me a sign-in code' }).click();

  const codeField = form.getByLabel('Sign-in code');
  await expect(codeField).toBeFocused();
  await expect(form.getByRole('status')).toHaveText(
    `If we know ${email}, a sign-in code is on its way. It works once, for 10 minutes.`,
  );
  await expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');
  await expectAccessible(page, 'code sign-in: the code', { moderate: true });

  const code = latestCode(email);
  const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  await codeField.fill(wrong);
  await form.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(codeField).toBeFocused();
  await expect(codeField).toHaveAccessibleDescription(/That code is not right, has expired or was already used\./);
  await expect(codeField).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page, 'code sign-in: a wrong code', { moderate: true });

  await codeField.fill(`${code.slice(0, 3)} ${code.slice(3)}`);
  await form.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('Successfully logged in', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/profile$/);

  // The same code a second time: refused, in the browser and at the token endpoint.
  const replay = await request.post('/oauth/access_token', {
    data: {
      grant_type: 'one_time_code',
      username: email,
      code,
      client_id: 'portal-spa',
      client_secret: 'portal-spa-secret',
      scope: 'default',
    },
  });
  expect(replay.status()).toBe(401);
  await new AppShell(page).logOut();
  await login.goto();
  await page.getByRole('button', { name: 'Email me a sign-in code' }).click();
  // A new code for this visit ends the old one too; the old one is refused at the field.
  await form.getByLabel('E-mail', { exact: true }).fill(email);
  await form.getByRole('button', { name: 'Email me a sign-in code' }).click();
  await form.getByLabel('Sign-in code').fill(code);
  await form.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(form.getByLabel('Sign-in code')).toHaveAccessibleDescription(/That code is not right/);
  await expect(page).toHaveURL(/\/login$/);
  // The new code of this visit still works: the refusal was the old code's.
  await form.getByLabel('Sign-in code').fill(latestCode(email));
  await form.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/profile$/);
});
