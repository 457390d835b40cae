// The honest start of issue 25 through the real binary: the Welcome step lists what the package
// needs and how long the journey takes, exactly as the server computed them (GET
// /api/v2/user/preparation); a package with fewer services gets a shorter list and a shorter
// estimate; "I'll find this later" persists after a reload. Held to axe with any impact, and at 360 px.
import type { Page } from '@playwright/test';
import { expect, expectAccessible, inviteApplicant, portal, test } from './fixtures';
import { prefs, restoreCompanyDefaults, setCompanyPref } from './pom/finalization';

type Preparation = {
  items: { id: string; later: boolean }[];
  estimate: { minutes: { low: number; high: number }; parts: { id: string; minutes: { low: number; high: number } }[] };
};

test.afterEach(() => restoreCompanyDefaults());

const heading = (page: Page) => page.locator('#setup-step-heading');
const need = (page: Page) => page.getByRole('region', { name: "What you'll need" });
const laterBoxes = (page: Page) => need(page).getByRole('checkbox', { name: /^I'll find this later: / });

/** The setup credential the app holds after the invitation link. */
async function setupToken(page: Page): Promise<string> {
  const jwt = await page.evaluate(() => {
    const raw = sessionStorage.getItem('portal-session');
    return raw ? ((JSON.parse(raw) as { credentials?: { jwt?: string } }).credentials?.jwt ?? null) : null;
  });
  if (!jwt) throw new Error('no setup credential in sessionStorage');
  return jwt;
}

async function preparationOf(page: Page): Promise<Preparation> {
  const response = await page.request.get(`${portal.baseURL}/api/v2/user/preparation`, {
    headers: { Authorization: `Bearer ${await setupToken(page)}` },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as Preparation;
}

/** Opens an invitation link on the Welcome step and answers the server's preparation for it. */
async function welcome(page: Page, email: string): Promise<Preparation> {
  await page.goto(inviteApplicant(email, 'Avery', 'Lane'));
  await expect(heading(page)).toHaveText('Welcome');
  await expect(laterBoxes(page).first()).toBeVisible();
  return preparationOf(page);
}

const estimateText = (p: Preparation) =>
  `All of it takes about ${p.estimate.minutes.low} to ${p.estimate.minutes.high} minutes.`;

const partsHigh = (p: Preparation) => p.estimate.parts.reduce((sum, part) => sum + part.minutes.high, 0);

test("the Welcome step's list and estimate are the package's, and a smaller package's are shorter", async ({
  page,
}) => {
  const demo = await welcome(page, `welcome-demo-${Date.now()}@example.com`);
  // The demo package: every kind of page, a document, a drug test with site choice and a self-pay hold.
  expect(demo.items.map((it) => it.id)).toEqual(
    expect.arrayContaining(['addresses', 'employers', 'photoIdAndSelfie', 'collectionSite', 'paymentCard']),
  );
  await expect(laterBoxes(page)).toHaveCount(demo.items.length);
  await expect(page.getByText(estimateText(demo))).toBeVisible();
  await expect(need(page).getByText('A payment card for a hold of $25.00')).toBeVisible();
  await expect(need(page).getByText('Where you would like to take your drug test')).toBeVisible();
  await expectAccessible(page, 'the Welcome step', { anyImpact: true });

  // Fewer services: no site choice, no self-pay.
  setCompanyPref(prefs.siteSelection, 'false');
  setCompanyPref(prefs.selfPay, '0');
  await page.context().clearCookies();
  await page.evaluate(() => sessionStorage.clear());
  const smaller = await welcome(page, `welcome-small-${Date.now()}@example.com`);
  expect(smaller.items.map((it) => it.id)).toEqual(
    demo.items.map((it) => it.id).filter((id) => id !== 'collectionSite' && id !== 'paymentCard'),
  );
  expect(partsHigh(smaller)).toBeLessThan(partsHigh(demo));
  expect(smaller.estimate.minutes.high).toBeLessThanOrEqual(demo.estimate.minutes.high);
  await expect(laterBoxes(page)).toHaveCount(smaller.items.length);
  await expect(page.getByText(estimateText(smaller))).toBeVisible();
  await expect(need(page).getByText(/A payment card/)).toHaveCount(0);
});

test("I'll find this later is kept after a reload, and reads well at 360 px", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await welcome(page, `welcome-later-${Date.now()}@example.com`);
  const addresses = need(page).getByRole('checkbox', { name: /I'll find this later: Every address you have lived at/ });
  const saved = page.waitForResponse(
    (r) => r.url().includes('/api/v2/user/preparation/addresses') && r.request().method() === 'PUT' && r.ok(),
  );
  await addresses.check();
  await saved;
  await page.reload();
  await expect(heading(page)).toHaveText('Welcome');
  await expect(addresses).toBeChecked();
  expect((await preparationOf(page)).items.find((it) => it.id === 'addresses')?.later).toBe(true);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, 'horizontal scroll at 360 px').toBeLessThanOrEqual(360);
  await expectAccessible(page, 'the Welcome step at 360 px', { anyImpact: true });
  // Nothing is blocked: Next still leads on.
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(heading(page)).toHaveText('Create Password');
});
