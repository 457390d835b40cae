// The journeys of issue 12 through the real binary, each from an invitation link to /: setup through
// the API (setup.spec.ts is about the wizard, the drug-test ZIP code typed there included), the data pages (through the applicant's own API, with the token the app
// holds: profile-journey.spec.ts drives those pages), the review's "Start identity verification",
// the sandbox provider's page in its frame, and then per spec section 4 the collection site, self-pay,
// both or neither; and a declined verification tried again. The company's preferences are changed
// through `portal company set-pref` before an invitation and put back after each test.
import type { Page, Response } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures';
import { ConfirmationPage } from './pom/data-pages';
import {
  ApplicantApi,
  fillDataPagesInBrowser,
  CollectionSitePage,
  futureExpiry,
  HomeFinalPage,
  IdvPage,
  IdvReturnPage,
  prefs,
  restoreCompanyDefaults,
  SelfPayPage,
  setCompanyPref,
  type Card,
} from './pom/finalization';
import { inviteSetUpThroughApi } from './pom/api-setup';

const password = 'correct horse battery staple';
const applicant = { firstName: 'Quinn', lastName: 'Harper', lastFour: '6789' };

/** The standard of the new pages: no axe violation of any impact. */
const axe = (page: Page, context: string) => expectAccessible(page, context, { anyImpact: true });

/** The search's heading for 78701: the state as people write it (TX), not the ISO code (US-TX). */
const austinResults = /^\d+ sites within 25 miles of 78701 \(Austin, TX\)$/;
/** An address line with the ISO code ("Austin, US-TX 78701"). */
const isoState = /, US-[A-Z]{2} \d{5}/;

async function expectNoSideScroll(page: Page, context: string) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `horizontal scroll on ${context}`).toBeLessThanOrEqual(360);
}

const card = (number: string): Card => ({
  number,
  expiry: futureExpiry(),
  cvc: '123',
  name: `${applicant.firstName} ${applicant.lastName}`,
  postalCode: '78701',
});

const isSubjectRead = (r: Response) =>
  new URL(r.url()).pathname === '/api/v2/user/subject' && r.request().method() === 'GET' && r.ok();

test.use({ actionTimeout: 15_000 });

// Specs share one server: whatever a journey changed, the next spec file finds the demo company as seeded.
test.afterEach(() => restoreCompanyDefaults());

/**
 * After setup: the data pages through the API, then the review (read afresh) says ready, and its
 * button starts identity verification on /idv with the provider's frame.
 */
async function reviewAndStartIdv(page: Page, dataPages: 'api' | 'browser' = 'api'): Promise<IdvPage> {
  if (dataPages === 'api') await (await ApplicantApi.of(page)).fillDataPages();
  else await fillDataPagesInBrowser(page);
  const ready = page.waitForResponse(async (r) => {
    if (!isSubjectRead(r)) return false;
    const body = (await r.json().catch(() => null)) as { payload: { readyToSubmit: boolean } } | null;
    return body?.payload.readyToSubmit === true;
  });
  await page.goto('/confirmation');
  await ready;
  const review = new ConfirmationPage(page);
  await expect(review.heading).toBeVisible();
  await expect(review.missing).toHaveCount(0);
  await expect(review.start).toBeEnabled();
  await review.submit();
  await expect(page).toHaveURL(/\/idv$/);
  const idv = new IdvPage(page);
  await expect(idv.heading).toBeVisible();
  await expect(idv.frameElement).toBeVisible();
  return idv;
}

/** The sandbox steps with the given outcome; the frame's message takes the app to /idv/success. */
async function verify(idv: IdvPage, outcome: 'Approve' | 'Decline') {
  await idv.useSamples();
  await idv.decide(outcome);
}

/** Declined card first (nothing typed is lost), then the good one; the app moves on to /. */
async function payWithDeclineFirst(page: Page, amount = '$25.00') {
  const pay = new SelfPayPage(page);
  await expect(pay.heading).toBeVisible();
  await expect(page.getByText(amount, { exact: true }).first()).toBeVisible();
  await expect(pay.submit()).toHaveText(`Authorize ${amount}`);

  const declined = card('4000 0000 0000 0002');
  await pay.fill(declined);
  const refused = page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/api/v2/payment/auth' && r.request().method() === 'POST',
  );
  await pay.submit().click();
  expect((await refused).status()).toBe(402);
  await expect(pay.form.getByText('Your card was declined. Please use another card.')).toBeVisible();
  await expect(page).toHaveURL(/\/self-pay$/);
  // Nothing typed is lost.
  await expect(pay.field('Card number')).toHaveValue('4000 0000 0000 0002');
  await expect(pay.field('Expiry date')).toHaveValue(declined.expiry);
  await expect(pay.field('Security code')).toHaveValue(declined.cvc);
  await expect(pay.field('Name on card')).toHaveValue(declined.name);
  await expect(pay.field('Billing ZIP code')).toHaveValue(declined.postalCode);
  await axe(page, 'self-pay after a declined card');

  await pay.field('Card number').fill('4242 4242 4242 4242');
  await expect(pay.field('Card number')).toHaveValue('4242 4242 4242 4242');
  await pay.submit().click();
  await expect(page.getByText('Payment successfully authorized', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
}

test('A: invitation to / through the collection site and self-pay (site selection on, drug test, hold 25.00)', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await inviteSetUpThroughApi(page, `journey12.a.${Date.now()}@example.com`, applicant, password, { drugZip: '78701' });

  // This journey fills the data pages in the browser; the others through the API.
  const idv = await reviewAndStartIdv(page, 'browser');
  await expect(idv.frameElement).toHaveAttribute('allow', /camera/);
  const box = await idv.frameElement.boundingBox();
  expect(box?.height ?? 0, 'the frame is at least 600 px high').toBeGreaterThanOrEqual(600);
  await expect(idv.frame.getByRole('heading', { name: 'Step 1 of 3: Photo of your ID document' })).toBeVisible();
  await expect(idv.after).toContainText('Choose a collection site for your drug test.');
  await expect(idv.after).toContainText('Pay for your screening: a hold of $25.00 on your card.');
  await axe(page, '/idv with the sandbox frame');
  await verify(idv, 'Approve');

  // Back from the provider: the confirmation says what follows, then on to the site (status 6).
  const verified = new IdvReturnPage(page);
  await expect(verified.outcome).toHaveText('Identity verified', { timeout: 20_000 });
  await expect(verified.next).toContainText('Choose a collection site for your drug test.');
  await axe(page, '/idv/success, verified');
  await verified.continueWhenVerified();
  await expect(page).toHaveURL(/\/collection-site$/, { timeout: 20_000 });
  const sites = new CollectionSitePage(page);
  await expect(sites.heading).toBeVisible();
  // The drug-test ZIP code from setup is there, and searched at once.
  await expect(sites.zip).toHaveValue('78701');
  await expect(sites.resultsHeading).toHaveText(/^\d+ sites within 25 miles of 78701 /);
  await expect(sites.resultsHeading).toHaveText(austinResults);
  // "Use this site" comes with the site chosen, beside it.
  await expect(sites.use).toHaveCount(0);
  await expect(sites.list.getByText(isoState), 'addresses read "Austin, TX", not the ISO code').toHaveCount(0);
  // Ten at a time; the filters folded until asked for.
  await expect(sites.radios()).toHaveCount(10);
  await expect(sites.shownCount()).toHaveText(/^Showing 10 of \d+ sites$/);
  await expect(sites.filters()).toHaveText('Filters');
  await expect(sites.search.getByRole('checkbox', { name: 'Open now' })).toBeHidden();
  await axe(page, '/collection-site with results');
  await sites.showMore().click();
  await expect(sites.radios().nth(10)).toBeFocused();
  await expect(sites.shownCount()).toHaveText(/^Showing \d+ of \d+ sites$/);

  // The keyboard alone: into the group, Space picks the first, the arrow moves the choice to the second.
  const radios = sites.radios();
  expect(await radios.count()).toBeGreaterThan(1);
  await radios.first().focus();
  await page.keyboard.press('Space');
  await expect(radios.first()).toBeChecked();
  await page.keyboard.press('ArrowDown');
  await expect(radios.nth(1)).toBeChecked();
  await expect(radios.nth(1)).toBeFocused();
  const chosenId = await radios.nth(1).getAttribute('value');
  const chosenName = (await page.locator(`label[for="site-${chosenId}"] > span`).first().textContent())?.trim() ?? '';
  expect(chosenName).not.toBe('');
  await expect(sites.use).toBeEnabled();
  await sites.use.focus();
  await page.keyboard.press('Enter');

  // A payment is owed: self-pay (status 7).
  await expect(page).toHaveURL(/\/self-pay$/);
  await axe(page, '/self-pay');
  await payWithDeclineFirst(page);

  // The final state: site and receipt.
  const home = new HomeFinalPage(page);
  await expect(home.heading).toBeVisible();
  await expect(home.next).toContainText('Go to your collection site for your drug test.');
  await expect(home.site).toContainText(chosenName);
  await expect(home.site).toContainText('Austin');
  await expect(home.site.getByText(isoState), 'the address reads "Austin, TX", not the ISO code').toHaveCount(0);
  await expect(home.receipt).toContainText('Visa ending in 4242');
  await expect(home.receipt).toContainText('$25.00');
  await axe(page, '/ after site and payment');

  // The hold cannot be taken twice: a new key answers the same authorization.
  const api = await ApplicantApi.of(page);
  const payment = await api.ok('GET', '/api/v2/payment');
  const authorization = payment.authorization as { id: string; last4: string };
  expect(authorization.last4).toBe('4242');
  await expect(home.receipt).toContainText(authorization.id);
  const again = await api.send('POST', '/api/v2/payment/auth', {
    cardNumber: '5555 5555 5555 4444',
    expiry: futureExpiry(),
    cvc: '123',
    cardholderName: `${applicant.firstName} ${applicant.lastName}`,
    postalCode: '78701',
    idempotencyKey: crypto.randomUUID(),
  });
  expect(again.status, JSON.stringify(again.body)).toBe(200);
  expect((again.body.authorization as { id: string }).id).toBe(authorization.id);
  const site = await api.ok('GET', '/api/v2/user/collection-site');
  expect(String((site.site as { id: number }).id)).toBe(chosenId);

  // On a phone: nothing wider than the screen.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.reload();
  await expect(home.heading).toBeVisible();
  await expect(home.receipt).toBeVisible();
  await expectNoSideScroll(page, '/ at 360 px');
});

test('B: invitation to / with self-pay only (site selection off, a 40.00 hold)', async ({ page }) => {
  test.setTimeout(180_000);
  setCompanyPref(prefs.siteSelection, 'false');
  // The hold comes from the package's preference.
  setCompanyPref(prefs.hold, '40.00');
  await inviteSetUpThroughApi(page, `journey12.b.${Date.now()}@example.com`, applicant, password);

  const idv = await reviewAndStartIdv(page);
  await expect(idv.after).not.toContainText('collection site');
  await expect(idv.after).toContainText('a hold of $40.00');
  await verify(idv, 'Approve');
  // Straight to self-pay: no site to choose.
  await new IdvReturnPage(page).continueWhenVerified();
  await expect(page).toHaveURL(/\/self-pay$/, { timeout: 20_000 });
  await payWithDeclineFirst(page, '$40.00');

  const home = new HomeFinalPage(page);
  await expect(home.heading).toBeVisible();
  await expect(home.receipt).toContainText('Visa ending in 4242');
  await expect(home.receipt).toContainText('$40.00');
  await expect(home.site).toHaveCount(0);
  await expect(home.next).not.toContainText('Go to your collection site');
});

test('C: invitation to / with neither site nor self-pay', async ({ page }) => {
  test.setTimeout(180_000);
  setCompanyPref(prefs.siteSelection, 'false');
  setCompanyPref(prefs.selfPay, '0');
  await inviteSetUpThroughApi(page, `journey12.c.${Date.now()}@example.com`, applicant, password);

  const idv = await reviewAndStartIdv(page);
  await expect(idv.after).toContainText('Nothing else');
  await verify(idv, 'Approve');
  // Straight to the end.
  const verified = new IdvReturnPage(page);
  await expect(verified.outcome).toHaveText('Identity verified', { timeout: 20_000 });
  await expect(verified.next).toContainText('Nothing else: your part is done.');
  await verified.continueWhenVerified();
  await expect(page).toHaveURL(/\/$/, { timeout: 20_000 });
  const home = new HomeFinalPage(page);
  await expect(home.heading).toBeVisible();
  await expect(home.screening).toBeVisible();
  await expect(home.site).toHaveCount(0);
  await expect(home.receipt).toHaveCount(0);
  await axe(page, '/ with neither site nor payment');
  // Nothing was owed.
  const payment = await (await ApplicantApi.of(page)).ok('GET', '/api/v2/payment');
  expect(payment.required).toBe(false);
  expect(payment.authorization).toBeNull();
});

test('D: a declined verification explains itself; "Try again" opens a new session that continues to the site', async ({
  page,
}) => {
  test.setTimeout(180_000);
  // On a phone: the frame and the pages after it fit 360 px.
  await page.setViewportSize({ width: 360, height: 740 });
  const { subjectId } = await inviteSetUpThroughApi(page, `journey12.d.${Date.now()}@example.com`, applicant, password);

  const idv = await reviewAndStartIdv(page);
  const first = await idv.sessionId();
  await expect(idv.frame.getByRole('heading', { name: 'Step 1 of 3: Photo of your ID document' })).toBeVisible();
  await expectNoSideScroll(page, '/idv at 360 px');
  const box = await idv.frameElement.boundingBox();
  expect(box?.width ?? 0, 'the frame fits the phone').toBeLessThanOrEqual(360);
  await idv.expectNoScrollInside();
  await verify(idv, 'Decline');

  await expect(page).toHaveURL(/\/idv\/success/, { timeout: 20_000 });
  const outcome = new IdvReturnPage(page).outcome;
  await expect(outcome).toHaveText('We could not verify your identity');
  await expect(outcome).toBeFocused();
  await expect(page.getByText('The photos did not let the provider confirm who you are.')).toBeVisible();
  await axe(page, '/idv/success, declined');
  await expectNoSideScroll(page, '/idv/success at 360 px');
  await page.getByRole('button', { name: 'Try again' }).click();

  await expect(page).toHaveURL(/\/idv$/);
  const second = await idv.sessionId();
  expect(second).not.toBe(first);
  await verify(idv, 'Approve');
  await new IdvReturnPage(page).continueWhenVerified();

  // With the defaults: on to the collection site; no drug ZIP from setup, so the applicant types one.
  await expect(page).toHaveURL(/\/collection-site$/, { timeout: 20_000 });
  const sites = new CollectionSitePage(page);
  await expect(sites.zip).toHaveValue('');
  await sites.searchZip('00000');
  await expect(sites.search.getByText('We could not find ZIP code 00000.')).toBeVisible();
  await sites.searchZip('78701');
  await expect(sites.resultsHeading).toHaveText(/^\d+ sites within 25 miles of 78701 /);
  await expect(sites.resultsHeading).toHaveText(austinResults);
  await expect(sites.zip).not.toHaveAttribute('aria-invalid', 'true');
  await expectNoSideScroll(page, '/collection-site at 360 px');

  // Bad input over the API, each a clear answer: a site that does not exist, a move out of order, a new
  // verification once the status has moved on.
  const api = await ApplicantApi.of(page);
  const unknown = await api.send('PUT', '/api/v2/user/collection-site', { siteId: 1 });
  expect(unknown.status).toBe(422);
  expect(unknown.body.errorFields).toEqual([
    {
      field: 'siteId',
      message: 'This collection site does not exist. Search again and choose one from the list.',
      code: 'collection_site.not_found',
    },
  ]);
  expect((await api.send('POST', '/api/v2/user/subject/status', { statusId: 2 })).status).toBe(409);
  expect((await api.send('PUT', '/api/v2/idv/session', { subjectId })).status).toBe(409);

  // The mouse this time; a payment is owed, so self-pay comes next.
  await sites.radios().nth(2).check();
  await sites.use.click();
  await expect(page).toHaveURL(/\/self-pay$/);
  await expect(new SelfPayPage(page).form).toBeVisible();
  await expectNoSideScroll(page, '/self-pay at 360 px');
});
