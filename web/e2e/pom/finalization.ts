// Page objects of the pages after the review (issue 12): identity verification with the sandbox
// provider's page in its frame, the return page, the collection-site search, self-pay and the final
// page; and the shortcuts the journeys take to reach them (the company's preferences through the
// CLI, the data pages through the applicant's own API).
import { expect, type APIRequestContext, type FrameLocator, type Locator, type Page } from '@playwright/test';
import { portal, portalCli } from '../fixtures';
import {
  AddressesPage,
  AliasesPage,
  answer,
  choose,
  date,
  HubPage,
  label,
  monthsAgo,
  ServiceDataPage,
  text,
  tick,
  type EntryValue,
} from './data-pages';

// --- The company's preferences ---------------------------------------------------------------------

export const prefs = {
  siteSelection: 'company_applicant_collection_site_selection',
  selfPay: 'applicant_self_pay_enabled',
  hold: 'applicant_self_pay_initial_hold_amount',
  chat: 'company_subject_chat',
} as const;

/** The demo company as seeded: site selection on, self-pay on with a 25.00 hold, chat on. */
const seeded: Record<string, string> = {
  [prefs.siteSelection]: 'true',
  [prefs.selfPay]: '1',
  [prefs.hold]: '25.00',
  [prefs.chat]: 'true',
};

/**
 * The seeded preferences this worker has changed on its server (each worker has a server of its
 * own): all restoreCompanyDefaults needs to put back. Each CLI call costs a second or more on a
 * busy machine, and most tests change none.
 */
const changed = new Set<string>();

/**
 * `portal company set-pref NAME VALUE` against the server's data folder. The two self-pay preferences
 * belong to the company's default package: they reach applicants invited afterwards.
 */
export function setCompanyPref(name: string, value: string): string {
  // Counted as changed before the call: a call that fails half-way is put back too.
  if (name in seeded) changed.add(name);
  const out = portalCli('company set-pref', name, value);
  if (seeded[name] === value) changed.delete(name);
  return out;
}

/** The demo company as seeded, for the preferences changed since it last was. */
export function restoreCompanyDefaults() {
  for (const name of [...changed]) setCompanyPref(name, seeded[name]);
}

// --- Setup and the data pages ----------------------------------------------------------------------

/** The school, current employer and reference a person enters on the demo package's data pages. */
export const schoolEntry = (): EntryValue[] => [
  text('School name', 'Austin Community College'),
  choose('Type of school', 'Community college'),
  text('City', 'Austin'),
  choose('Country', 'United States'),
  choose('State', 'Texas'),
  date('Attended from', '2008-09'),
  date('Attended to', '2010-05'),
  answer('Did you graduate?', 'Yes'),
  choose('Degree or diploma', 'Associate degree'),
];
export const currentEmployerEntry = (): EntryValue[] => [
  text('Employer name', 'Riverside Warehousing'),
  text('City', 'Austin'),
  choose('Country', 'United States'),
  choose('State', 'Texas'),
  text('Employer phone number', '(512) 555-0100'),
  text('Job title', 'Warehouse associate'),
  date('Start date', `${monthsAgo(30)}-01`),
  tick('I currently work here'),
  answer('May we contact this employer?', 'No'),
];
export const referenceEntry = (): EntryValue[] => [
  text('Full name', 'Morgan Blake'),
  choose('Relationship to you', 'Supervisor or manager'),
  text('Phone number', '(512) 555-0142'),
  text('Years you have known them', '3'),
];

/**
 * The data pages the demo package asks for, in the browser, from the hub's first link to the review:
 * no other names, one address over the seven years, a school, a current employer that is not
 * DOT-regulated, no credential, a reference. (profile-journey.spec.ts goes through every control of
 * these pages; this is the shortest way a person gets through them.)
 */
export async function fillDataPagesInBrowser(page: Page) {
  const hub = new HubPage(page);
  await expect(hub.checklist).toBeVisible();
  await hub.follow('Other Names');

  await expect(page).toHaveURL(/\/aliases$/);
  const aliases = new AliasesPage(page);
  await aliases.form.getByRole('checkbox', { name: 'I have not used any other names' }).check();
  await aliases.saveAndContinue();

  await expect(page).toHaveURL(/\/addresses$/);
  const history = new AddressesPage(page);
  await history.fillAddress(0, {
    country: 'United States',
    street1: '1400 Congress Ave',
    city: 'Austin',
    state: 'Texas',
    zip: '78701',
    from: monthsAgo(100),
  });
  await history.saveAndContinue();

  await expect(page).toHaveURL(/\/education$/);
  const education = new ServiceDataPage(page, 'Education', 'School');
  await education.fillEntry(1, schoolEntry());
  await education.saveAndContinue();

  await expect(page).toHaveURL(/\/employment$/);
  const employment = new ServiceDataPage(page, 'Employment', 'Employer');
  await employment.fillEntry(1, currentEmployerEntry());
  await employment.saveAndContinue();

  await expect(page).toHaveURL(/\/credential$/);
  const credentials = new ServiceDataPage(page, 'Licenses and Credentials', 'Credential');
  await credentials.form.getByRole('checkbox', { name: 'I have no licenses or credentials to report' }).check();
  await credentials.saveAndContinue();

  await expect(page).toHaveURL(/\/professional$/);
  const references = new ServiceDataPage(page, 'Professional References', 'Reference');
  await references.fillEntry(1, referenceEntry());
  await references.saveAndContinue();
  await expect(page).toHaveURL(/\/confirmation$/);
}

/** The logged-in applicant's bearer token, as the app keeps it (lib/session.ts). */
export async function bearerToken(page: Page): Promise<string> {
  const jwt = await page.evaluate(() => {
    const raw = sessionStorage.getItem('portal-session');
    return raw ? ((JSON.parse(raw) as { credentials?: { jwt?: string } }).credentials?.jwt ?? null) : null;
  });
  if (!jwt) throw new Error('no bearer token in sessionStorage: is the applicant logged in?');
  return jwt;
}

/** The applicant's own API, with the token the app holds. */
export class ApplicantApi {
  constructor(
    readonly request: APIRequestContext,
    readonly token: string,
  ) {}

  static async of(page: Page) {
    return new ApplicantApi(page.request, await bearerToken(page));
  }

  private headers(extra: Record<string, string> = {}) {
    return { Authorization: `Bearer ${this.token}`, ...extra };
  }

  async send(method: 'GET' | 'PUT' | 'POST', path: string, data?: unknown, headers: Record<string, string> = {}) {
    const response = await this.request.fetch(`${portal.baseURL}${path}`, {
      method,
      headers: this.headers(headers),
      data: data === undefined ? undefined : data,
    });
    const text = await response.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    return { status: response.status(), body: body as Record<string, unknown> };
  }

  /** Sends and insists on a 200, saying what came back otherwise. */
  async ok(method: 'GET' | 'PUT' | 'POST', path: string, data?: unknown) {
    const answer = await this.send(method, path, data);
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(200);
    return answer.body;
  }

  /**
   * Every data page the demo package asks for, as the pages' own saves send them (the bodies of
   * internal/httpapi/subject_data_test.go): no other names, one address over the seven years, a
   * school, a current employer that is not DOT-regulated (no DOT release to sign), no credential,
   * a reference.
   */
  async fillDataPages() {
    await this.ok('PUT', '/api/v2/user/subject/alias', { aliases: [] });
    await this.ok('PUT', '/api/v2/user/subject/address', {
      addresses: [
        {
          country: 'US',
          street1: '1400 Congress Ave',
          street2: '',
          city: 'Austin',
          state: 'US-TX',
          zip: '78701',
          from: monthsAgo(100),
          to: '',
          current: true,
        },
      ],
    });
    await this.ok('POST', '/api/v2/user/profile', {
      noDataAvailable: { credential: true },
      services: {
        credential: [{ data_available: false }],
        education: [
          {
            school_name: 'Austin Community College',
            school_type: 'community_college',
            school_city: 'Austin',
            school_state: 'US-TX',
            school_country: 'US',
            attended_from: '2008-09',
            attended_to: '2010-05',
            graduated: 'yes',
            degree: 'associate',
            graduation_date: '2010-05',
          },
        ],
        employment: [
          {
            employer_name: 'Riverside Warehousing',
            employer_city: 'Austin',
            employer_state: 'US-TX',
            employer_country: 'US',
            employer_phone_no: '(512) 555-0100',
            job_title: 'Warehouse associate',
            start_date: `${monthsAgo(30)}-01`,
            currently_employed: true,
            may_contact: 'no',
            employer_dot: false,
          },
        ],
        professional: [
          {
            reference_name: 'Morgan Blake',
            relationship: 'supervisor',
            reference_phone: '(512) 555-0142',
            years_known: '3',
          },
        ],
      },
    });
    const subject = await this.ok('GET', '/api/v2/user/subject');
    const view = subject.payload as { readyToSubmit: boolean; pages: { id: string; missing?: string[] }[] };
    expect(view.readyToSubmit, `not ready to submit: ${JSON.stringify(view.pages)}`).toBe(true);
  }
}

// --- Identity verification -------------------------------------------------------------------------

/** /idv: what is needed, what follows, and the provider's page in its frame. */
export class IdvPage {
  readonly heading: Locator;
  readonly after: Locator;
  readonly frameElement: Locator;
  readonly frame: FrameLocator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Verify your identity' });
    this.after = page.getByRole('region', { name: 'After this step' });
    this.frameElement = page.locator('iframe[title="Identity verification"]');
    this.frame = page.frameLocator('iframe[title="Identity verification"]');
  }

  /** The session id in the frame's address (/sandbox/idv/{id}?token=...). */
  async sessionId(): Promise<string> {
    await expect(this.frameElement).toHaveAttribute('src', /\/sandbox\/idv\/[^/?]+\?token=/);
    const src = (await this.frameElement.getAttribute('src')) ?? '';
    return new URL(src, portal.baseURL).pathname.split('/').pop() as string;
  }

  /** The frame is as tall as the provider's page: nothing scrolls inside it, only the page. */
  async expectNoScrollInside() {
    const frame = await (await this.frameElement.elementHandle())?.contentFrame();
    if (!frame) throw new Error('the verification frame has no page');
    await expect
      .poll(() => frame.evaluate(() => document.documentElement.scrollHeight - window.innerHeight), {
        message: 'the page inside the frame is no taller than the frame',
      })
      .toBeLessThanOrEqual(1);
  }

  /** Step 1 and 2 of the sandbox: the sample document, the sample selfie; then the review step. */
  async useSamples() {
    const f = this.frame;
    await expect(f.getByRole('heading', { name: 'Step 1 of 3: Photo of your ID document' })).toBeVisible();
    await f.getByRole('button', { name: 'Use sample document' }).click();
    await expect(f.getByRole('heading', { name: 'Step 2 of 3: Selfie' })).toBeVisible();
    await f.getByRole('button', { name: 'Use sample selfie' }).click();
    await expect(f.getByRole('heading', { name: 'Step 3 of 3: Review' })).toBeVisible();
  }

  async decide(outcome: 'Approve' | 'Decline' | 'Abandon the session') {
    await this.frame.getByRole('button', { name: `${outcome} (test outcome)` }).click();
  }
}

/** /idv/success: the outcome of the session, in its h1; after approval the confirmation and "Continue". */
export class IdvReturnPage {
  readonly outcome: Locator;
  readonly next: Locator;
  readonly continue: Locator;

  constructor(readonly page: Page) {
    this.outcome = page.getByRole('heading', { level: 1 });
    this.next = page.getByRole('region', { name: 'What happens next' });
    this.continue = page.getByRole('button', { name: 'Continue' });
  }

  /** The confirmation once the provider approved (the sandbox decides a few seconds after the review), then on. */
  async continueWhenVerified() {
    await expect(this.page).toHaveURL(/\/idv\/success/, { timeout: 20_000 });
    await expect(this.outcome).toHaveText('Identity verified', { timeout: 20_000 });
    await expect(this.outcome).toBeFocused();
    await this.continue.click();
  }
}

// --- Collection site -------------------------------------------------------------------------------

/** /collection-site: the search, the results as one radio group, and "Use this site". */
export class CollectionSitePage {
  readonly heading: Locator;
  readonly search: Locator;
  readonly zip: Locator;
  readonly resultsHeading: Locator;
  readonly list: Locator;
  readonly use: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Choose a drug-test collection site' });
    this.search = page.getByRole('search', { name: 'Find a site' });
    this.zip = this.search.getByLabel(label('ZIP code'));
    this.resultsHeading = page.locator('#sites-results-title');
    this.list = page.getByRole('radiogroup', { name: 'Choose a collection site' });
    this.use = page.getByRole('button', { name: 'Use this site' });
  }

  radios() {
    return this.list.getByRole('radio');
  }

  /** "Showing 10 of 23 sites", under the list when there are more than 10. */
  shownCount() {
    return this.page.getByRole('status').filter({ hasText: /^Showing \d+ of \d+ sites$/ });
  }

  showMore() {
    return this.page.getByRole('button', { name: 'Show more sites' });
  }

  /** The folded filters: "Filters", with how many are on. */
  filters() {
    return this.search.locator('summary', { hasText: /^Filters/ });
  }

  async searchZip(zip: string) {
    await this.zip.fill(zip);
    await this.search.getByRole('button', { name: 'Search' }).click();
  }
}

// --- Self-pay --------------------------------------------------------------------------------------

export type Card = { number: string; expiry: string; cvc: string; name: string; postalCode: string };

/** /self-pay: the hold and the card form. */
export class SelfPayPage {
  readonly heading: Locator;
  readonly form: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Pay for your screening' });
    this.form = page.getByRole('form', { name: 'Card details' });
  }

  field(name: 'Card number' | 'Expiry date' | 'Security code' | 'Name on card' | 'Billing ZIP code') {
    return this.form.getByLabel(label(name));
  }

  submit() {
    return this.form.getByRole('button', { name: /^Authorize / });
  }

  async fill(card: Card) {
    await this.field('Card number').fill(card.number);
    await this.field('Expiry date').fill(card.expiry);
    await this.field('Security code').fill(card.cvc);
    await this.field('Name on card').fill(card.name);
    await this.field('Billing ZIP code').fill(card.postalCode);
  }
}

/** An expiry two years ahead, MM/YY. */
export function futureExpiry(today = new Date()): string {
  return `${String(today.getMonth() + 1).padStart(2, '0')}/${String((today.getFullYear() + 2) % 100).padStart(2, '0')}`;
}

// --- The final page --------------------------------------------------------------------------------

/** /: the end of the applicant's part. */
export class HomeFinalPage {
  readonly heading: Locator;
  readonly next: Locator;
  readonly screening: Locator;
  readonly site: Locator;
  readonly receipt: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: "You're all set" });
    this.next = page.getByRole('region', { name: 'What happens next' });
    this.screening = page.getByRole('region', { name: 'Your screening' });
    this.site = page.getByRole('region', { name: 'Your collection site' });
    this.receipt = page.getByRole('region', { name: 'Payment receipt' });
  }
}
