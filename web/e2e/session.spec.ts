// Logging in and out through the real server, with axe on every page visited.
import { gzipSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { inviteSetUpThroughApi } from './pom/api-setup';
import { AppShell } from './pom/app-shell';
import { AddressesPage } from './pom/data-pages';
import { LoginPage } from './pom/login-page';
import { expect, expectAccessible, portal, test } from './fixtures';

/** The demo applicant's names as the API answers them (not hard-coded: the demo seed owns them). */
async function demoIdentity(request: import('@playwright/test').APIRequestContext) {
  const token = await request.post('/oauth/access_token', {
    data: {
      grant_type: 'password',
      username: portal.demoUsername,
      password: portal.demoPassword,
      client_id: 'portal-spa',
      client_secret: 'portal-spa-secret',
      scope: 'default',
    },
  });
  expect(token.status()).toBe(200);
  const { access_token } = await token.json();
  const user = await (
    await request.get('/api/v2/user', { headers: { Authorization: `Bearer ${access_token}` } })
  ).json();
  await request.delete('/oauth/access_token', { headers: { Authorization: `Bearer ${access_token}` } });
  const info = user.subject.personalInformation;
  const first = info?.firstName ?? user.subject.firstName;
  const last = info?.lastName ?? user.subject.lastName;
  return { fullName: `${first} ${last}`, company: user.company.name as string };
}

test('logging in with the demo login shows the top bar and a menu with name and company', async ({ page, request }) => {
  const identity = await demoIdentity(request);
  const login = new LoginPage(page);
  const shell = new AppShell(page);
  await login.goto();
  await expect(page).toHaveTitle('Login | Applicant Portal');
  // Logged out, the top bar has the provider's brand and no menu.
  await expect(shell.topBar.getByTestId('brand-wordmark')).toBeVisible();
  await expect(shell.userMenuButton).toHaveCount(0);
  await expectAccessible(page, 'login page');

  await login.logIn(portal.demoUsername, portal.demoPassword);
  await expect(page.getByText('Successfully logged in', { exact: true })).toBeVisible();
  await expect(shell.topBar).toBeVisible();
  await expect(page).not.toHaveURL(/\/login$/);
  await expect(shell.topBar.getByRole('img')).toBeVisible();
  await expectAccessible(page, `first page after login (${page.url()})`);

  await shell.openMenu();
  await expect(shell.menu).toContainText(identity.fullName);
  await expect(shell.menu).toContainText(identity.company);
  await expect(shell.menuItem('Account')).toBeVisible();
  await expect(shell.menuItem('Logout')).toBeVisible();
  // The open menu stays inside the header's landmark (axe: region).
  await expectAccessible(page, 'open user menu', { moderate: true });

  await page.keyboard.press('Escape');
  await expect(shell.menu).toHaveCount(0);
  await expect(shell.userMenuButton).toBeFocused();
});

test('a wrong password is said plainly in the form, and still there after 5 s', async ({ page }) => {
  // The page's clock, moved on by hand below: the 5 s pass at once.
  await page.clock.install();
  const login = new LoginPage(page);
  await login.goto();
  await login.logIn(portal.demoUsername, 'not-the-password');
  const alert = page.getByRole('form', { name: 'Login' }).getByRole('alert');
  const plain = "That e-mail and password don't match. Check them and try again, or reset your password.";
  await expect(alert).toHaveText(plain);
  await expect(page.getByText('The user credentials were incorrect.')).toHaveCount(0);
  await expect(page).toHaveURL(/\/login$/);
  await expectAccessible(page, 'login page with error message');
  // Toasts leave after 2.5 s; this stays until the visitor acts.
  await page.clock.fastForward(5_000);
  await expect(alert).toBeVisible();
  await expect(alert).toHaveText(plain);
  await login.password.fill('something else');
  await expect(alert).toHaveCount(0);
});

test('logout says "Logged out successfully." and lands on /login', async ({ page }) => {
  const login = new LoginPage(page);
  const shell = new AppShell(page);
  await login.goto();
  await login.logIn(portal.demoUsername, portal.demoPassword);
  // The top bar shows on /login for a moment before the first page replaces the layout, and a
  // menu opened there closes with it: wait for the page, as the other journeys do.
  await expect(page).not.toHaveURL(/\/login$/);
  await expect(shell.userMenuButton).toBeVisible();

  await shell.logOut();
  await expect(page.getByText('Logged out successfully.', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await expect(shell.userMenuButton).toHaveCount(0);
  await expectAccessible(page, 'login page after logout');
  // The session is gone: a guarded page sends the visitor back to /login.
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login$/);
  await expect(login.username).toBeVisible();
  await expectAccessible(page, 'login page after logout and a guarded page');
});

test('the login works by keyboard alone', async ({ page }) => {
  const login = new LoginPage(page);
  await page.goto('/login');
  await login.username.waitFor();
  // From the top of the page: the skip link, the language switch, then the e-mail field.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Español' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(login.username).toBeFocused();
  await page.keyboard.type(portal.demoUsername);
  await page.keyboard.press('Tab');
  await expect(login.password).toBeFocused();
  await page.keyboard.type(portal.demoPassword);
  await page.keyboard.press('Enter');
  await expect(page.getByText('Successfully logged in', { exact: true })).toBeVisible();
  await expect(new AppShell(page).userMenuButton).toBeVisible();
  await expectAccessible(page, `first page after a keyboard-only login (${page.url()})`);
});

test('the login page fits a 360 px wide screen', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const login = new LoginPage(page);
  await login.goto();
  for (const element of [login.username, login.password, login.submit, login.forgotPassword]) {
    await expect(element).toBeInViewport();
    const box = await element.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 360).toBe(true);
  }
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectAccessible(page, 'login page at 360 px');
});

/** Text only React Router's code holds (its hooks' messages), and only TanStack Query's. */
const ROUTER_CODE = 'may be used only in the context of a <Router> component';
const QUERY_CODE = 'No QueryClient set';

/**
 * Every script and style sheet the page fetches by itself: at start, and whatever the app loads later
 * without the visitor doing anything (an idle callback fires within 2 s at the latest).
 */
async function firstLoadAssets(page: Page, path: string) {
  const assets: Promise<{ path: string; body: Buffer; transferred: number; encoding?: string }>[] = [];
  page.on('response', (response) => {
    const assetPath = new URL(response.url()).pathname;
    if (!/\.(js|css)$/.test(assetPath)) return;
    assets.push(
      (async () => ({
        path: assetPath,
        body: await response.body(),
        transferred: (await response.request().sizes()).responseBodySize,
        encoding: response.headers()['content-encoding'],
      }))(),
    );
  });
  await page.goto(path);
  await page.locator('#main h1').waitFor();
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(3000);
  await page.waitForLoadState('networkidle');
  return Promise.all(assets);
}

/** The fetched files that hold React Router's or TanStack Query's code. */
const routerOrQueryFiles = (assets: { path: string; body: Buffer }[]) =>
  assets.filter((a) => a.body.includes(ROUTER_CODE) || a.body.includes(QUERY_CODE)).map((a) => a.path);

test("/login's first load is at most 92 kB gzip of JavaScript and CSS, served compressed, without React Router or TanStack Query", async ({
  page,
}) => {
  const loaded = await firstLoadAssets(page, '/login');
  // Measured as check-bundle.mjs measures: each file at gzip level 9.
  const sized = loaded.map((a) => ({ ...a, raw: a.body.length, gzip: gzipSync(a.body, { level: 9 }).length }));
  const total = sized.reduce((sum, asset) => sum + asset.gzip, 0);
  const transferred = sized.reduce((sum, asset) => sum + asset.transferred, 0);
  const report = sized.map((a) => `${(a.gzip / 1000).toFixed(2)} kB  ${a.path}`).join('\n');
  console.log(
    `/login: ${(total / 1000).toFixed(2)} kB gzip in ${sized.length} files (${(transferred / 1000).toFixed(2)} kB transferred)`,
  );
  expect(total, `/login loads ${(total / 1000).toFixed(2)} kB gzip:\n${report}`).toBeLessThanOrEqual(92_000);
  // The login shell (src/app/login-shell.tsx): the router app loads only when the visitor leaves the page.
  expect(routerOrQueryFiles(loaded)).toEqual([]);
  // The server sends them brotli-compressed, precompressed at build time, as Chromium accepts br
  // (a file too small to gain from it may come as it is).
  expect(sized.filter((a) => a.raw > 1000 && a.encoding !== 'br').map((a) => a.path)).toEqual([]);
  await expectAccessible(page, "login page's first load");

  // The check can fail: another first page loads the router app.
  expect(routerOrQueryFiles(await firstLoadAssets(page, '/profile'))).not.toEqual([]);
});

test("from /login's first load a login reaches the applicant's page, its h1 focused and its title announced", async ({
  page,
}) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.logIn(portal.demoUsername, portal.demoPassword);
  await expect(page.getByText('Successfully logged in', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.locator('#main h1')).toBeFocused();
  await expect(page.locator('#page-announcement')).toHaveText(
    (await page.title()).replace(/ \| Applicant Portal$/, ''),
  );
  await expect(new AppShell(page).userMenuButton).toBeVisible();
  // Back to /login: the router's login guard sends a logged-in applicant on.
  await page.goBack();
  await expect(page).toHaveURL(/\/profile$/);
});

test("Forgot Password opens the Reset Password dialog on /login's first load", async ({ page }) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.forgotPassword.click();
  const dialog = page.getByRole('dialog', { name: 'Reset Password' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('E-mail', { exact: true })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Send' })).toBeVisible();
  await expectAccessible(page, "Reset Password dialog on /login's first load");
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(login.forgotPassword).toBeFocused();
});

test.describe('in Spanish', () => {
  test.use({ locale: 'es-US' });

  test("/login's first load speaks Spanish, without React Router", async ({ page }) => {
    const loaded = await firstLoadAssets(page, '/login');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es-US');
    await expect(page.getByRole('heading', { level: 1, name: 'Portal del solicitante' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Iniciar sesión' })).toBeVisible();
    expect(routerOrQueryFiles(loaded)).toEqual([]);
    await expectAccessible(page, "login page's first load (es-US)");
  });
});

test('two minutes before the session ends a warning offers to stay; unanswered, what was typed is there after signing in again', async ({
  page,
}) => {
  const email = `timeout.${Date.now()}@example.com`;
  const password = 'Session-Ends-Gently-2026!';
  await inviteSetUpThroughApi(page, email, { firstName: 'Tim', lastName: 'Out', lastFour: '6789' }, password);
  // The browser's clock, moved by hand from the next page on: the server's one-hour access token
  // stays valid throughout.
  await page.clock.install();
  await page.goto('/addresses');
  const addresses = new AddressesPage(page);
  await addresses.field(0, 'Street address').fill('9 Elm St');
  const warning = page.getByRole('dialog', { name: 'Your session is about to end' });
  const stay = warning.getByRole('button', { name: 'Stay signed in' });

  // 58 minutes in: the warning takes focus on Stay signed in, and Enter renews the session.
  await page.clock.fastForward('57:50');
  await expect(warning).toBeVisible();
  await expect(warning).toContainText('you will be signed out in 2 minutes');
  await expect(stay).toBeFocused();
  await expectAccessible(page, 'session warning', { moderate: true });
  await page.keyboard.press('Enter');
  await expect(warning).toHaveCount(0);
  await expect(addresses.field(0, 'Street address')).toBeFocused();

  // Escape keeps the session too; the next warning, unanswered, ends it, and what was typed is kept.
  await page.clock.fastForward('57:50');
  await expect(warning).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(warning).toHaveCount(0);
  await addresses.field(0, 'City').fill('Austin');
  await page.clock.fastForward('57:50');
  await expect(warning).toBeVisible();
  await page.clock.fastForward('02:05');
  await expect(page).toHaveURL(/\/login$/);
  await expect(
    page.getByRole('status').filter({ hasText: /^Your session ended after a time without activity/ }),
  ).toBeVisible();

  const login = new LoginPage(page);
  await login.logIn(email, password);
  await expect(page).toHaveURL(/\/addresses$/);
  await expect(addresses.field(0, 'Street address')).toHaveValue('9 Elm St');
  await expect(addresses.field(0, 'City')).toHaveValue('Austin');
});
