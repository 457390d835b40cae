// Issue 26: after every page change the focus is on the new page's h1 and the page's title is
// announced, through the ten changes where it used to fall to the page body: login, starting identity
// verification, its approval, on to the site search, "Use this site", "Authorize", "Change site", the
// home link, the menu's Account and logout. The states before the review are built through the API.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { inviteSetUpThroughApi } from './pom/api-setup';
import { AppShell } from './pom/app-shell';
import {
  ApplicantApi,
  CollectionSitePage,
  futureExpiry,
  HomeFinalPage,
  IdvPage,
  IdvReturnPage,
  restoreCompanyDefaults,
  SelfPayPage,
} from './pom/finalization';
import { ConfirmationPage } from './pom/data-pages';
import { LoginPage } from './pom/login-page';

const password = 'correct horse battery staple';
const applicant = { firstName: 'Fay', lastName: 'Focus', lastFour: '6789' };

test.use({ actionTimeout: 15_000 });
test.afterEach(() => restoreCompanyDefaults());

/** The h1 of the page has the focus, and the live region says the page's title (the document's). */
async function expectPageChanged(page: Page, context: string) {
  await expect(page.locator('#main h1'), `the h1 after ${context}`).toBeFocused();
  const title = (await page.title()).replace(/ \| Applicant Portal$/, '');
  await expect(page.locator('#page-announcement'), `the announcement after ${context}`).toHaveText(title);
}

test('each page change puts the focus on the new page h1 and announces its title', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const email = `focus.${Date.now()}@example.com`;
  // Ends with a login on /login: the first change.
  await inviteSetUpThroughApi(page, email, applicant, password, { drugZip: '78701' });
  await expectPageChanged(page, 'login');

  await (await ApplicantApi.of(page)).fillDataPages();
  await page.goto('/confirmation');
  const review = new ConfirmationPage(page);
  await expect(review.start).toBeEnabled();
  await review.submit();
  const idv = new IdvPage(page);
  await expect(idv.heading).toBeVisible();
  await expectPageChanged(page, 'starting identity verification');

  await idv.useSamples();
  await idv.decide('Approve');
  const verified = new IdvReturnPage(page);
  await expect(verified.outcome).toHaveText('Identity verified', { timeout: 20_000 });
  await expectPageChanged(page, 'the approval');

  await verified.continue.click();
  const sites = new CollectionSitePage(page);
  await expect(sites.heading).toBeVisible({ timeout: 20_000 });
  await expectPageChanged(page, 'Continue to the site search');

  await sites.radios().first().check();
  await sites.use.click();
  const pay = new SelfPayPage(page);
  await expect(pay.heading).toBeVisible();
  await expectPageChanged(page, 'Use this site');

  await pay.fill({
    number: '4242 4242 4242 4242',
    expiry: futureExpiry(),
    cvc: '123',
    name: 'Fay Focus',
    postalCode: '78701',
  });
  await pay.submit().click();
  const home = new HomeFinalPage(page);
  await expect(home.heading).toBeVisible();
  await expectPageChanged(page, 'Authorize');

  await home.site.getByRole('link', { name: 'Change site' }).click();
  await expect(page).toHaveURL(/\/collection-site-update$/);
  await expectPageChanged(page, 'Change site');

  await page
    .getByRole('banner')
    .getByRole('link', { name: /\(home page\)$/ })
    .click();
  await expect(home.heading).toBeVisible();
  await expectPageChanged(page, 'the home link');

  const shell = new AppShell(page);
  await shell.openMenu();
  await shell.menuItem('Account').click();
  await expect(page).toHaveURL(/\/account$/);
  await expectPageChanged(page, "the menu's Account");

  await shell.logOut();
  await expect(page).toHaveURL(/\/login$/);
  await expectPageChanged(page, 'logout');

  await new LoginPage(page).logIn(email, password);
  await expect(home.heading).toBeVisible();
  await expectPageChanged(page, 'login again');
});

/** The focused element's top edge when the sticky top bar covers it, else null. */
function hiddenUnderTopBar() {
  const focused = document.activeElement;
  const bar = [...document.querySelectorAll('header')].find((h) => getComputedStyle(h).position === 'sticky');
  if (!focused || !bar || focused === document.body || bar.contains(focused)) return null;
  const box = focused.getBoundingClientRect();
  const barBottom = bar.getBoundingClientRect().bottom;
  if (box.top >= barBottom - 0.5 || box.bottom <= 0) return null;
  // What is drawn at the element's top edge: the bar, or the element (the skip link sits above the bar).
  const hit = document.elementFromPoint(box.left + box.width / 2, Math.max(box.top + 1, 0));
  return hit && bar.contains(hit) ? `${focused.tagName} "${(focused.textContent ?? '').trim().slice(0, 40)}"` : null;
}

test('no control the keyboard focuses on / or /profile hides under the sticky top bar at 360 px', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 360, height: 640 });
  await inviteSetUpThroughApi(page, `focus.bar.${Date.now()}@example.com`, applicant, password);
  for (const path of ['/profile', '/']) {
    await page.goto(path);
    await expect(page.locator('#main h1')).toBeVisible();
    // Forwards down the page, then backwards up it, where the bar covers what scrolls up under it.
    for (const key of ['Tab', 'Shift+Tab']) {
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press(key);
        expect(await page.evaluate(hiddenUnderTopBar), `${path}, ${key} × ${i + 1}`).toBeNull();
      }
    }
  }
});
