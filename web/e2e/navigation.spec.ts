// Routes and guards through the real server, with axe on every page visited.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, inviteApplicant, portal, portalCli, test } from './fixtures';
import { LoginPage } from './pom/login-page';

test('an unknown path is a 404 of the server, and the page says so in plain words under the brand', async ({
  page,
}) => {
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(page.getByText('If you typed the web address, check it is correct.')).toBeVisible();
  await expect(page.getByText('/no/such/page')).toHaveCount(0);
  await expect(page.getByRole('banner').getByTestId('brand-wordmark')).toHaveText('ClearPath Screening');
  await expectAccessible(page, '404 page');
  await page.getByRole('link', { name: 'Go to the login page' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('a bare /print is a 404; the pages of the route table are not', async ({ page, request }) => {
  expect((await request.get('/print')).status()).toBe(404);
  expect((await request.get('/print/disclosure')).status()).toBe(200);
  expect((await request.get('/login')).status()).toBe(200);
  const response = await page.goto('/print');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
});

test('a logged-out visit to /profile lands on /login', async ({ page }) => {
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByLabel('E-mail', { exact: true })).toBeVisible();
  await expectAccessible(page, 'login page after a guarded page');
});

/** The scripts and style sheets a visit fetches, by path, until the page is quiet. */
async function assetsOfVisit(page: Page, path: string) {
  const assets: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (/\.(js|css)$/.test(pathname)) assets.push(pathname);
  });
  await page.goto(path);
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByLabel('E-mail', { exact: true })).toBeVisible();
  await page.waitForLoadState('networkidle');
  return assets;
}

test('a logged-out visit to / goes to /login without fetching any logged-in code', async ({ page, browser }) => {
  // The files of the home page and of the guarded pages' layout, from the build's manifest.
  const manifestPath = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', '.vite', 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<
    string,
    { file: string; css?: string[]; imports?: string[] }
  >;
  const loggedInFiles = ['src/app/routes/home.tsx', 'src/app/layouts/default-layout.tsx'].map(
    (module) => `/${manifest[module].file}`,
  );
  /** A chunk's files (its code and CSS), and those of the chunks it imports statically. */
  const filesOf = (key: string, files = new Set<string>()): Set<string> => {
    const chunk = manifest[key];
    if (files.has(`/${chunk.file}`)) return files;
    files.add(`/${chunk.file}`);
    for (const css of chunk.css ?? []) files.add(`/${css}`);
    for (const imported of chunk.imports ?? []) filesOf(imported, files);
    return files;
  };
  // What /login shows once the router app renders it (the first load of /login has the login shell).
  const routerLogin = filesOf('src/app/routes/login.tsx', filesOf('src/app/app.tsx'));

  const fromHome = await assetsOfVisit(page, '/');
  expect(fromHome.filter((path) => loggedInFiles.includes(path))).toEqual([]);
  // Nothing /login would not fetch by itself either, but the router app and its /login route.
  const fresh = await browser.newPage();
  const loginAlone = await assetsOfVisit(fresh, '/login');
  await fresh.close();
  expect(fromHome.filter((path) => !loginAlone.includes(path) && !routerLogin.has(path))).toEqual([]);
});

test('the demo invitation link lands on /setup', async ({ page }) => {
  const { pathname, search } = new URL(portal.demoInvitation);
  await page.goto(pathname + search);
  await expect(page).toHaveURL(/\/setup\?token=/);
  await expect(page.getByRole('heading', { name: 'Set Up Your Account' })).toBeVisible();
  await expectAccessible(page, 'setup page');
});

test('an invitation made with `portal invite` while the server runs lands on /setup', async ({ page }) => {
  const link = inviteApplicant(`e2e.invite.${Date.now()}@example.com`, 'Ivy', 'Invite');
  expect(link).toMatch(/\/setup\?token=/);
  const { pathname, search } = new URL(link);
  await page.goto(pathname + search);
  await expect(page).toHaveURL(/\/setup\?token=/);
  await expect(page.getByRole('heading', { name: 'Set Up Your Account' })).toBeVisible();
  await expectAccessible(page, 'setup page from a `portal invite` link');
});

test('a used or unknown invitation token goes to /login, which says why and offers a new link', async ({ page }) => {
  await page.goto('/setup?token=not-a-real-token');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Your invitation link no longer works' })).toBeFocused();
  await expect(page.getByText(/We don't recognise this link\./)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send me a new link' })).toBeVisible();
  // Not an access problem: no Access Denied message.
  await expect(page.getByText(/^Access Denied/)).toHaveCount(0);
  await expectAccessible(page, 'login page after an unknown invitation link');
});

test('the Forgot Password dialog sends the request, and the e-mailed link sets a new password', async ({
  page,
  request,
}) => {
  // An applicant of our own, so the demo login stays as it is for the other tests.
  const email = `e2e.reset.${Date.now()}@example.com`;
  const invitation = new URL(inviteApplicant(email, 'Rita', 'Reset'));
  const setup = await request.get(`/api/user?token=${invitation.searchParams.get('token')}`);
  expect(setup.status()).toBe(200);
  const { access_token } = await setup.json();
  const created = await request.patch('/api/v2/user', {
    data: { password: 'First-password-2026!' },
    headers: { Authorization: `Bearer ${access_token}` },
  });
  expect(created.status()).toBe(200);

  const login = new LoginPage(page);
  await login.goto();
  await login.forgotPassword.click();
  const dialog = page.getByRole('dialog', { name: 'Reset Password' });
  await expect(dialog).toBeVisible();
  await expectAccessible(page, 'Reset Password dialog');
  await dialog.getByLabel('E-mail', { exact: true }).fill(email);
  await dialog.getByRole('button', { name: 'Send' }).click();
  // The confirmation stays in the dialog until it is closed.
  await expect(dialog.getByText('Request has been sent', { exact: true })).toBeVisible();
  await expect(dialog).toContainText(`If an account exists for ${email}, we have sent a link`);
  await expect(dialog).toContainText('The link lasts 1 hour.');
  await expectAccessible(page, 'Reset Password dialog, sent');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);

  const outbox = portalCli('outbox');
  const links = [...outbox.matchAll(/https?:\/\/\S+\/reset\?token=[\w-]+/g)].map((m) => m[0]);
  const resetLink = links.find((link) => outbox.slice(0, outbox.indexOf(link)).includes(email)) ?? links.at(-1);
  expect(resetLink, `no reset link in the outbox:\n${outbox}`).toBeTruthy();
  const { pathname, search } = new URL(resetLink as string);
  await page.goto(pathname + search);
  await expect(page.getByRole('heading', { name: 'Set a new password' })).toBeVisible();
  await expectAccessible(page, 'reset page');
  await page.getByLabel('New password', { exact: true }).fill('Second-password-2026!');
  await page.getByLabel('Confirm new password').fill('Second-password-2026!');
  await page.getByRole('button', { name: 'Set Password' }).click();
  await expect(page.getByText('Your password has been changed.', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  // The account's address is filled in (not carried in the URL); the new password is what is left.
  await expect(login.username).toHaveValue(email);
  await expect(login.password).toBeFocused();
  await expectAccessible(page, 'login page after a password reset');

  await login.password.fill('Second-password-2026!');
  await login.submit.click();
  await expect(page.getByText('Successfully logged in', { exact: true })).toBeVisible();
  // A new applicant still has setup to finish (the wizard names its step in the URL).
  await expect(page).toHaveURL(/\/setup(\?step=legal)?$/);
  await expect(page.getByText('Please finish setting up your account', { exact: true })).toBeVisible();
  await expectAccessible(page, 'setup page with the finish-setup message');
});
