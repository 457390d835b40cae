// Logging in and out through the real server, with axe on every page visited.
import { AppShell } from './pom/app-shell';
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
  const user = await (await request.get('/api/v2/user', { headers: { Authorization: `Bearer ${access_token}` } })).json();
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
  await expect(shell.topBar).toHaveCount(0);
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
  await expectAccessible(page, 'open user menu');

  await page.keyboard.press('Escape');
  await expect(shell.menu).toHaveCount(0);
  await expect(shell.userMenuButton).toBeFocused();
});

test('a wrong password shows the server message and stays on the login page', async ({ page }) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.logIn(portal.demoUsername, 'not-the-password');
  await expect(page.getByText('The user credentials were incorrect.', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await expectAccessible(page, 'login page with error message');
});

test('logout says "Logged out successfully." and lands on /login', async ({ page }) => {
  const login = new LoginPage(page);
  const shell = new AppShell(page);
  await login.goto();
  await login.logIn(portal.demoUsername, portal.demoPassword);
  await expect(shell.userMenuButton).toBeVisible();

  await shell.logOut();
  await expect(page.getByText('Logged out successfully.', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await expect(shell.topBar).toHaveCount(0);
  await expectAccessible(page, 'login page after logout');
  // The session is gone: a guarded page sends the visitor back to /login.
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login$/);
});

test('the login works by keyboard alone', async ({ page }) => {
  const login = new LoginPage(page);
  await page.goto('/login');
  await login.username.waitFor();
  // From the top of the page: the skip link, then the username field.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(login.username).toBeFocused();
  await page.keyboard.type(portal.demoUsername);
  await page.keyboard.press('Tab');
  await expect(login.password).toBeFocused();
  await page.keyboard.type(portal.demoPassword);
  await page.keyboard.press('Enter');
  await expect(page.getByText('Successfully logged in', { exact: true })).toBeVisible();
  await expect(new AppShell(page).userMenuButton).toBeVisible();
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
