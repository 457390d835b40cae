// The journey with a keyboard alone (issue 26, WCAG 2.1.1): from the invitation link through the
// setup wizard (welcome, password, login, every legal step, personal information), the profile hub,
// the review and identity verification to /, with no mouse and no click(): only Tab, Shift+Tab, Enter, Space and typing. At each step it
// checks that focus landed on the step's heading; it counts the key presses and prints the count
// (and attaches it to the report), which keeps needless stops in sight: the audit counted 873 from
// invitation to home. The signature is typed once, on the first document that asks for one.
import type { Locator, Page } from '@playwright/test';
import { expect, inviteApplicant, test } from './fixtures';
import { ApplicantApi, prefs, restoreCompanyDefaults, setCompanyPref } from './pom/finalization';

test.setTimeout(180_000);

/** The keyboard, counted: every key pressed, a typed character being one press. */
class Keys {
  presses = 0;
  /** Of those, the characters typed: what the applicant has to say, not to move. */
  typed = 0;
  /** Presses per part of the journey, for the report. */
  readonly parts: [string, number][] = [];
  private partStart = 0;

  constructor(private readonly page: Page) {}

  async press(key: string, times = 1) {
    for (let i = 0; i < times; i++) {
      await this.page.keyboard.press(key);
      this.presses++;
    }
  }

  async type(text: string) {
    await this.page.keyboard.type(text);
    this.presses += [...text].length;
    this.typed += [...text].length;
  }

  /** Tab (Shift+Tab with `back`) until `target` has focus: fails after `max` presses. */
  async tabTo(target: Locator, { max = 30, back = false } = {}) {
    for (let i = 0; i <= max; i++) {
      if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
      if (i === max) break;
      await this.press(back ? 'Shift+Tab' : 'Tab');
    }
    const focused = await this.page.evaluate(() => {
      const el = document.activeElement;
      return el ? `${el.tagName.toLowerCase()}#${el.id} "${(el.textContent ?? '').trim().slice(0, 40)}"` : 'nothing';
    });
    throw new Error(`${max} presses of ${back ? 'Shift+Tab' : 'Tab'} did not reach ${target}; focus is on ${focused}`);
  }

  /** Tabs to a field and types into it. */
  async fill(target: Locator, text: string, options?: { max?: number }) {
    await this.tabTo(target, options);
    await this.type(text);
  }

  /** Tabs to a button (or link) and presses Enter. */
  async activate(target: Locator, options?: { max?: number }) {
    await this.tabTo(target, options);
    await this.press('Enter');
  }

  /** Tabs to a checkbox and ticks it with Space. */
  async tick(target: Locator, options?: { max?: number }) {
    await this.tabTo(target, options);
    await this.press('Space');
    await expect(target).toBeChecked();
  }

  /** Tabs to a select and picks the option whose label starts with `typed` (type-ahead). */
  async choose(target: Locator, typed: string, label: string, options?: { max?: number }) {
    await this.tabTo(target, options);
    await this.type(typed);
    await expect(target.locator('option:checked')).toHaveText(label);
  }

  /** Closes the count of one part of the journey. */
  part(name: string) {
    this.parts.push([name, this.presses - this.partStart]);
    this.partStart = this.presses;
  }
}

/** Types a date into its boxes in the order they come (Tab between them). */
async function typeDate(keys: Keys, field: Locator, iso: string) {
  const [year, month, day] = iso.split('-');
  const boxes = { Day: day, Month: month, Year: year };
  const first = field.getByRole('textbox').first();
  await keys.tabTo(first);
  const order = await field
    .getByRole('textbox')
    .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).labels?.[0]?.textContent ?? ''));
  for (const [n, label] of order.entries()) {
    if (n > 0) await keys.press('Tab');
    await expect(field.getByLabel(label, { exact: true })).toBeFocused();
    await keys.type(boxes[label as keyof typeof boxes]);
  }
}

// Specs share one server: whatever the journey changed, the next spec file finds the demo company as seeded.
test.afterEach(() => restoreCompanyDefaults());

test('a keyboard alone takes an applicant from the invitation link through setup, the review and identity verification to /', async ({
  page,
}, testInfo) => {
  // Identity verification straight to the end: the site search and self-pay have journeys of their own.
  setCompanyPref(prefs.siteSelection, 'false');
  setCompanyPref(prefs.selfPay, '0');
  const keys = new Keys(page);
  const first = 'Kai';
  const last = 'Keys';
  const password = 'keyboard only journey 2026';
  await page.goto(inviteApplicant(`keyboard-${Date.now()}@example.com`, first, last));

  const heading = page.locator('#setup-step-heading');
  // Each step starts with its heading focused, where a screen reader starts reading.
  await expect(heading).toHaveText('Welcome');
  await expect(heading).toBeFocused();
  await keys.activate(page.getByRole('button', { name: 'Next' }), { max: 40 });
  keys.part('welcome');

  await expect(heading).toHaveText('Create Password');
  await expect(heading).toBeFocused();
  await keys.fill(page.getByLabel('Password', { exact: true }), password);
  await keys.fill(page.getByLabel('Confirm password'), password);
  await keys.activate(page.getByRole('button', { name: 'Create password' }));
  keys.part('password');

  await expect(heading).toHaveText('Login');
  await expect(heading).toBeFocused();
  await keys.fill(page.getByLabel('Password', { exact: true }), password);
  await keys.press('Enter');
  keys.part('login');

  await expect(page.getByRole('heading', { name: 'Where do you live?' })).toBeVisible();
  await keys.choose(page.getByLabel('State', { exact: true }), 'Texas', 'Texas');
  await keys.activate(page.getByRole('button', { name: 'Continue' }));
  keys.part('residency');

  const signed: string[] = [];
  let typed = false;
  for (let guard = 0; guard < 15; guard++) {
    await expect(heading).not.toHaveText('Login');
    if ((await heading.textContent()) === 'Personal Information') break;
    const step = page.locator('#legal-step-heading');
    await expect(step).toBeVisible();
    const title = (await step.textContent()) ?? '';
    const form = page.getByRole('form', { name: `Sign: ${title}` });
    await expect(form).toBeVisible();
    await expect(step).toBeFocused();
    if (await form.getByLabel('First name').count()) {
      await keys.fill(form.getByLabel('First name'), first, { max: 60 });
      await keys.fill(form.getByLabel('Last name'), last);
    }
    const lastFour = form.getByLabel('Last four digits of your Social Security number');
    if (await lastFour.count()) await keys.fill(lastFour, '6789', { max: 60 });
    for (const box of await form.getByRole('checkbox').all()) {
      const label = (await box.evaluate((el) => (el as HTMLInputElement).labels?.[0]?.textContent)) ?? '';
      if (!label.includes('do not have a US Social Security')) await keys.tick(box, { max: 60 });
    }
    if (await form.getByRole('img', { name: /Signature drawing area/ }).count()) {
      // The first signature, typed once: every later document offers it.
      expect(typed, `${title} asks for a signature again`).toBe(false);
      typed = true;
      await keys.activate(form.getByRole('button', { name: 'Type your signature instead' }), { max: 60 });
      await expect(form.getByLabel('Type your full name as your signature')).toBeFocused();
      await keys.type(`${first} ${last}`);
    }
    await keys.activate(form.getByRole('button', { name: /^(Sign this document|Agree and continue)$/ }), { max: 60 });
    await expect(page.getByRole('form', { name: `Sign: ${title}` })).toHaveCount(0);
    signed.push(title);
    keys.part(`legal: ${title}`);
  }
  expect(signed.length).toBeGreaterThan(2);

  await expect(heading).toHaveText('Personal Information');
  await expect(heading).toBeFocused();
  const form = page.getByRole('form', { name: 'Personal Information' });
  await keys.tick(form.getByLabel('No middle name'), { max: 60 });
  await keys.fill(form.getByLabel('Social Security number', { exact: true }), '123-45-6789');
  await keys.fill(form.getByLabel('Confirm Social Security number'), '123-45-6789');
  await typeDate(keys, form.getByRole('group', { name: /^Date of birth/ }), '1990-04-12');
  await typeDate(keys, form.getByRole('group', { name: /^Confirm date of birth/ }), '1990-04-12');
  await keys.fill(form.getByLabel('Daytime phone number'), '202 456 1111');
  await keys.fill(form.getByLabel("Driver's license number"), 'D7654321');
  await keys.choose(form.getByLabel('State that issued it'), 'Texas', 'Texas');
  await keys.activate(form.getByRole('button', { name: 'Save and finish' }), { max: 40 });
  keys.part('personal information');

  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  // The data pages have their keyboard checks in their own specs; here they are filled through the API,
  // and the journey goes on from the review.
  await (await ApplicantApi.of(page)).fillDataPages();
  await page.reload();
  await keys.activate(page.getByRole('main').getByRole('link', { name: 'Review and submit' }), { max: 80 });
  await expect(page.getByRole('heading', { level: 1, name: 'Review and submit' })).toBeFocused();
  await keys.tick(
    page.getByRole('checkbox', { name: 'I confirm that the information I have given is true and complete.' }),
    {
      max: 80,
    },
  );
  await keys.activate(page.getByRole('button', { name: 'Start identity verification' }));
  keys.part('review');

  // The provider's page in its frame: Tab goes into it as into the page.
  await expect(page).toHaveURL(/\/idv$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Verify your identity' })).toBeFocused();
  const frame = page.frameLocator('iframe[title="Identity verification"]');
  for (const name of ['Use sample document', 'Use sample selfie', 'Approve (test outcome)']) {
    await keys.activate(frame.getByRole('button', { name }), { max: 40 });
  }
  await expect(page).toHaveURL(/\/idv\/success/, { timeout: 20_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Identity verified' })).toBeFocused();
  await keys.activate(page.getByRole('button', { name: 'Continue' }));
  keys.part('identity verification');

  await expect(page).toHaveURL(/\/$/, { timeout: 20_000 });
  await expect(page.getByRole('heading', { level: 1, name: "You're all set" })).toBeFocused();

  const report = [
    `${keys.presses} key presses from the invitation link to /: ${keys.typed} typed characters, ${keys.presses - keys.typed} to move and act`,
    ...keys.parts.map(([part, n]) => `  ${part}: ${n}`),
  ].join('\n');
  console.log(report);
  await testInfo.attach('key presses', { body: report, contentType: 'text/plain' });
});
