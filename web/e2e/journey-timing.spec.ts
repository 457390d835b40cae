// Measures the whole applicant journey for the Welcome step's time estimate (issue 25, "an honest
// start"): runs only when PORTAL_MEASURE_JOURNEY=1 (`make measure-journey`). It goes through every
// step of the demo package in the browser, from the invitation link to the final page, and for each
// step records the machine time (page loads, server answers, what the browser does) and what a person
// does there: characters typed, fields filled, choices made, buttons pressed, signatures drawn,
// photos taken and words read. A modelled human pace turns those into seconds (the rates and their
// sources are RATES below and docs/operations.md, "The Welcome step's time estimate"), and the
// per-unit constants the server's model uses are written to internal/portal/journey-timing.json.
// The pace is modelled, not waited out: the run takes about a minute, not the journey's half hour.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, portal, test } from './fixtures';
import {
  AddressesPage,
  AliasesPage,
  choose,
  ConfirmationPage,
  date,
  dateField,
  fillDate,
  HubPage,
  label,
  monthsAgo,
  ServiceDataPage,
  text,
  tick,
} from './pom/data-pages';
import { DocumentsPage, FormsPage } from './pom/documents';
import {
  bearerToken,
  CollectionSitePage,
  currentEmployerEntry,
  futureExpiry,
  IdvPage,
  IdvReturnPage,
  referenceEntry,
  restoreCompanyDefaults,
  schoolEntry,
  SelfPayPage,
} from './pom/finalization';
import { inviteToSanFrancisco, SetupWizardPage } from './pom/setup-wizard';

const measuring = process.env.PORTAL_MEASURE_JOURNEY === '1';
const OUTPUT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'internal', 'portal', 'journey-timing.json');

/**
 * The modelled person, quick (low) and unhurried (high). Sources:
 * - typing: 52 words a minute on a computer keyboard (Dhakal, Feit, Kristensson & Oulasvirta 2018,
 *   "Observations on Typing from 136 Million Keystrokes", CHI: mean 51.56 wpm) and 36 on a phone
 *   (Palin, Feit, Kim, Kristensson & Oulasvirta 2019, "How do People Type on Mobile Devices?",
 *   MobileHCI: mean 36.17 wpm); a word is 5 characters.
 * - reading: 238 words a minute for English non-fiction, silent, and 300 at the quick end of its usual
 *   range (Brysbaert 2019, "How many words do we read per minute?", Journal of Memory and Language).
 * - deciding and pointing: the Keystroke-Level Model (Card, Moran & Newell 1980): mental preparation
 *   M = 1.35 s, pointing P = 1.1 s, moving a hand between mouse and keyboard H = 0.4 s. A text field
 *   is M + P + H before typing; a choice (select, radio, checkbox) M + 2P; a button M + P.
 * - not measurable in a browser run, so assumed and named as such: drawing a signature 4 to 8 s;
 *   taking a usable photo (an ID side, a selfie, a document) 20 to 40 s each.
 */
const RATES = {
  secondsPerChar: { low: 60 / (52 * 5), high: 60 / (36 * 5) },
  wordsPerMinute: { low: 300, high: 238 },
  textField: { low: 1.35 + 1.1 + 0.4, high: 1.35 + 1.1 + 0.4 },
  choice: { low: 1.35 + 2 * 1.1, high: 1.35 + 2 * 1.1 },
  button: { low: 1.35 + 1.1, high: 1.35 + 1.1 },
  signature: { low: 4, high: 8 },
  photo: { low: 20, high: 40 },
};

type Counts = {
  chars: number;
  textFields: number;
  choices: number;
  buttons: number;
  signatures: number;
  words: number;
  photos: number;
};
type Range = { low: number; high: number };
type StepTiming = { id: string; machineSeconds: number; counts: Counts; fixed: Range; fields: Range };

/**
 * Counts what the person does, in the page: the final value of each field (typed characters), each
 * choice, each button pressed, each signature drawn, and every new line of text shown in the main
 * landmark (read once, however often it is shown).
 */
function instrument() {
  type Entry = { kind: 'text' | 'choice'; length: number };
  // A radio group counts once: keyed by its name.
  const values = new Map<unknown, Entry>();
  const seen = new Set<string>();
  let buttons = 0;
  let signatures = 0;
  let words = 0;
  const read = () => {
    const root = document.querySelector('main') ?? document.body;
    if (!root) return;
    for (const raw of root.innerText.split('\n')) {
      const line = raw.trim();
      if (line && !seen.has(line)) {
        seen.add(line);
        words += line.split(/\s+/).length;
      }
    }
  };
  setInterval(read, 200);
  const onValue = (event: Event) => {
    const el = event.target as HTMLInputElement;
    if (!el || el.type === 'file' || !('value' in el)) return;
    const choice = el.tagName === 'SELECT' || el.type === 'checkbox' || el.type === 'radio';
    values.set(el.type === 'radio' && el.name ? el.name : el, {
      kind: choice ? 'choice' : 'text',
      length: choice ? 0 : String(el.value ?? '').length,
    });
  };
  document.addEventListener('input', onValue, true);
  document.addEventListener('change', onValue, true);
  document.addEventListener(
    'click',
    (event) => {
      if ((event.target as Element | null)?.closest?.('button, a[href], summary')) buttons++;
    },
    true,
  );
  document.addEventListener(
    'pointerdown',
    (event) => {
      if ((event.target as Element | null)?.tagName === 'CANVAS') signatures++;
    },
    true,
  );
  (window as unknown as { __journey: () => unknown }).__journey = () => {
    read();
    let chars = 0;
    let textFields = 0;
    let choices = 0;
    for (const v of values.values()) {
      if (v.kind === 'choice') choices++;
      else if (v.length > 0) {
        textFields++;
        chars += v.length;
      }
    }
    const out = { chars, textFields, choices, buttons, signatures, words };
    values.clear();
    buttons = 0;
    signatures = 0;
    words = 0;
    return out;
  };
}

/** The person's seconds for counts, split into the fixed part (reading, buttons) and the fields' part. */
function humanSeconds(c: Counts, pace: 'low' | 'high') {
  const fields =
    c.chars * RATES.secondsPerChar[pace] + c.textFields * RATES.textField[pace] + c.choices * RATES.choice[pace];
  const fixed =
    (c.words / RATES.wordsPerMinute[pace]) * 60 +
    c.buttons * RATES.button[pace] +
    c.signatures * RATES.signature[pace] +
    c.photos * RATES.photo[pace];
  return { fields, fixed };
}

class Stopwatch {
  readonly steps: StepTiming[] = [];
  constructor(readonly page: Page) {}

  private async take(): Promise<Omit<Counts, 'photos'>> {
    return (await this.page.evaluate(() => (window as unknown as { __journey: () => unknown }).__journey())) as Omit<
      Counts,
      'photos'
    >;
  }

  /** Times one step: `run` goes through it; `photos` are the pictures a person would take in it. */
  async step(id: string, run: () => Promise<void>, { photos = 0 } = {}) {
    await this.take(); // what came before belongs to the step before
    const started = performance.now();
    await run();
    const machineSeconds = (performance.now() - started) / 1000;
    const counts: Counts = { ...(await this.take()), photos };
    const low = humanSeconds(counts, 'low');
    const high = humanSeconds(counts, 'high');
    this.steps.push({
      id,
      machineSeconds,
      counts,
      fixed: { low: machineSeconds + low.fixed, high: machineSeconds + high.fixed },
      fields: { low: low.fields, high: high.fields },
    });
  }

  total(id: string): Range {
    const s = this.steps.filter((x) => x.id === id);
    if (s.length === 0) throw new Error(`step ${id} was not measured`);
    return s.reduce(
      (sum, x) => ({ low: sum.low + x.fixed.low + x.fields.low, high: sum.high + x.fixed.high + x.fields.high }),
      { low: 0, high: 0 },
    );
  }

  part(id: string, which: 'fixed' | 'fields'): Range {
    return this.steps
      .filter((x) => x.id === id)
      .reduce((sum, x) => ({ low: sum.low + x[which].low, high: sum.high + x[which].high }), { low: 0, high: 0 });
  }
}

const per = (r: Range, n: number): Range => ({ low: round(r.low / n), high: round(r.high / n) });
const round = (n: number) => Math.round(n * 10) / 10;
const rounded = (r: Range): Range => ({ low: round(r.low), high: round(r.high) });

test.skip(!measuring, 'measures the journey only when PORTAL_MEASURE_JOURNEY=1 (make measure-journey)');
test.use({ actionTimeout: 20_000 });
test.afterEach(() => restoreCompanyDefaults());

test('the whole journey, timed step by step, writes the estimate model', async ({ page }) => {
  test.setTimeout(300_000);
  restoreCompanyDefaults();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.addInitScript(instrument);
  const watch = new Stopwatch(page);
  const person = { firstName: 'Morgan', lastName: 'Ellis', lastFour: '6789' };
  const password = 'correct horse battery staple';
  const { link } = inviteToSanFrancisco(`journey-timing.${Date.now()}@example.com`, person);
  const wizard = new SetupWizardPage(page);

  await page.goto(link);
  await expect(wizard.heading()).toHaveText('Welcome');
  await watch.step('account', async () => {
    await wizard.welcome();
    await wizard.createPassword(password);
    await wizard.login(password);
    await wizard.residency('Texas');
  });
  let legalSteps = 0;
  await watch.step('legal', async () => {
    legalSteps = (await wizard.signAllLegalSteps(person.firstName, person.lastName, person.lastFour)).length;
  });
  await watch.step('personal', async () => {
    await wizard.personalInformation({
      ssn: '123-45-6789',
      dob: '1990-04-12',
      phone: '202 456 1111',
      license: 'D7654321',
      state: 'Texas',
      drugZip: '78701',
    });
    await expect(page).toHaveURL(/\/profile$/);
  });

  // What the package asks for, as the server tells the Welcome step.
  const headers = { Authorization: `Bearer ${await bearerToken(page)}` };
  const preparation = (await (
    await page.request.get(`${portal.baseURL}/api/v2/user/preparation`, { headers })
  ).json()) as { items: { id: string; years?: number }[] };
  const years = preparation.items.find((it) => it.id === 'addresses')?.years ?? 7;
  const services = (await (await page.request.get(`${portal.baseURL}/api/v2/user/service`, { headers })).json()) as {
    payload: { alias: string; service: { fields: { api: string }[] } }[];
  };
  const fieldsOf = (alias: string) =>
    new Set(services.payload.filter((s) => s.alias === alias).flatMap((s) => s.service.fields.map((f) => f.api))).size;
  const forms = (await (
    await page.request.get(`${portal.baseURL}/api/v2/user/profile/fillable-pdf-forms`, { headers })
  ).json()) as { title: string; fieldNames: string[] }[];

  const hub = new HubPage(page);
  await watch.step('otherNames', async () => {
    await expect(hub.checklist).toBeVisible();
    await hub.follow('Other Names');
    await expect(page).toHaveURL(/\/aliases$/);
    const aliases = new AliasesPage(page);
    await aliases.form.getByRole('checkbox', { name: 'I have not used any other names' }).check();
    await aliases.saveAndContinue();
    await expect(page).toHaveURL(/\/addresses$/);
  });
  await watch.step('addresses', async () => {
    const history = new AddressesPage(page);
    const where = { country: 'United States', state: 'Texas' };
    await history.fillAddress(0, {
      ...where,
      street1: '1400 Congress Ave',
      city: 'Austin',
      zip: '78701',
      from: monthsAgo(38),
    });
    await history.addAddress();
    await history.fillAddress(1, {
      ...where,
      street1: '2500 Elm St',
      city: 'Dallas',
      zip: '75226',
      from: monthsAgo(62),
      to: monthsAgo(38),
    });
    await history.addAddress();
    await history.fillAddress(2, {
      ...where,
      street1: '500 Main St',
      city: 'Houston',
      zip: '77002',
      from: monthsAgo(12 * years + 6),
      to: monthsAgo(62),
    });
    await history.saveAndContinue();
    await expect(page).toHaveURL(/\/education$/);
  });
  await watch.step('education', async () => {
    const education = new ServiceDataPage(page, 'Education', 'School');
    await education.fillEntry(1, schoolEntry());
    await education.saveAndContinue();
    await expect(page).toHaveURL(/\/employment$/);
  });
  await watch.step('employment', async () => {
    const employment = new ServiceDataPage(page, 'Employment', 'Employer');
    await employment.fillEntry(1, currentEmployerEntry());
    await employment.saveAndContinue();
    await expect(page).toHaveURL(/\/credential$/);
  });
  await watch.step('credential', async () => {
    const credentials = new ServiceDataPage(page, 'Licenses and Credentials', 'Credential');
    await credentials.fillEntry(1, [
      choose('Type', 'License'),
      text('Name of the license or credential', 'Forklift operator certificate'),
      text('Issuing authority', 'Texas Department of Licensing'),
      choose('State', 'Texas'),
      text('License or certificate number', 'FL-204518'),
      date('Issued on', '2019-03-15'),
      tick('It does not expire'),
    ]);
    await credentials.saveAndContinue();
    await expect(page).toHaveURL(/\/professional$/);
  });
  await watch.step('professional', async () => {
    const references = new ServiceDataPage(page, 'Professional References', 'Reference');
    await references.fillEntry(1, referenceEntry());
    await references.saveAndContinue();
    await expect(page).toHaveURL(/\/confirmation$/);
  });

  const documents = new DocumentsPage(page);
  const documentTitles = ["Driver's license or state ID", 'Diploma or transcript', 'Other supporting document'];
  const png = {
    name: 'photo.png',
    mimeType: 'image/png',
    buffer: Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    ),
  };
  await watch.step(
    'documents',
    async () => {
      await documents.goto();
      for (const title of documentTitles) {
        const sent = page.waitForResponse(
          (r) => r.url().endsWith('/api/v2/user/profile/documents') && r.request().method() === 'POST',
        );
        await documents.chooseFiles(title, [png]);
        expect((await sent).status()).toBe(201);
        await expect(documents.card(title).getByText(png.name, { exact: true })).toBeVisible();
      }
    },
    { photos: documentTitles.length },
  );

  const mvr = forms[0]?.title ?? 'Motor vehicle record request (sample)';
  await watch.step('pdfForms', async () => {
    const formsPage = new FormsPage(page);
    await formsPage.goto();
    await formsPage.open(mvr);
    const editor = formsPage.editor(mvr);
    await expect(formsPage.previewPage()).toBeVisible();
    await editor.getByLabel(label('Full name as printed on your license')).fill('Morgan Ellis');
    await editor.getByLabel(label("Driver's license number")).fill('D7654321');
    await fillDate(dateField(editor, 'Date of birth'), '1990-04-12');
    await editor.getByLabel(label('Issuing state')).selectOption('TX');
    await editor
      .getByRole('radiogroup', { name: label('License class') })
      .getByRole('radio')
      .first()
      .check();
    await editor.getByRole('checkbox', { name: /^I consent to the screening provider obtaining/ }).check();
    await fillDate(dateField(editor, 'Date'), new Date().toISOString().slice(0, 10));
    await formsPage.submit(mvr);
    await expect(page.getByText('Form submitted', { exact: true })).toBeVisible();
  });

  await watch.step('review', async () => {
    await page.goto('/confirmation');
    const review = new ConfirmationPage(page);
    await expect(review.heading).toBeVisible();
    await expect(review.missing).toHaveCount(0);
    await expect(review.start).toBeEnabled();
    await review.submit();
    await expect(page).toHaveURL(/\/idv$/);
  });
  await watch.step(
    'identity',
    async () => {
      const idv = new IdvPage(page);
      await expect(idv.frameElement).toBeVisible();
      await idv.useSamples();
      await idv.decide('Approve');
      const verified = new IdvReturnPage(page);
      await verified.continueWhenVerified();
      await expect(page).toHaveURL(/\/collection-site$/, { timeout: 20_000 });
    },
    // The front and back of the ID and a selfie.
    { photos: 3 },
  );
  await watch.step('collectionSite', async () => {
    const sites = new CollectionSitePage(page);
    await expect(sites.resultsHeading).toHaveText(/^\d+ sites within 25 miles of 78701 /);
    await sites.radios().first().check();
    await sites.use.click();
    await expect(page).toHaveURL(/\/self-pay$/);
  });
  await watch.step('payment', async () => {
    const pay = new SelfPayPage(page);
    await expect(pay.heading).toBeVisible();
    await pay.fill({
      number: '4242 4242 4242 4242',
      expiry: futureExpiry(),
      cvc: '123',
      name: 'Morgan Ellis',
      postalCode: '78701',
    });
    await pay.submit().click();
    await expect(page).toHaveURL(/\/$/);
  });

  // The constants of the server's model (internal/portal/estimate_model.go), per unit.
  const servicePages = ['education', 'employment', 'credential', 'professional'];
  const serviceFixed = servicePages.reduce(
    (s, id) => ({ low: s.low + watch.part(id, 'fixed').low, high: s.high + watch.part(id, 'fixed').high }),
    { low: 0, high: 0 },
  );
  const serviceFields = servicePages.reduce(
    (s, id) => ({ low: s.low + watch.part(id, 'fields').low, high: s.high + watch.part(id, 'fields').high }),
    { low: 0, high: 0 },
  );
  const definedFields = servicePages.reduce((n, id) => n + fieldsOf(id), 0);
  const formFields = forms.find((f) => f.title === mvr)?.fieldNames.length ?? 1;
  const model = {
    account: rounded(watch.total('account')),
    legalStep: per(watch.total('legal'), legalSteps),
    personal: rounded(watch.total('personal')),
    otherNames: rounded(watch.total('otherNames')),
    addressPage: rounded(watch.part('addresses', 'fixed')),
    addressYear: per(watch.part('addresses', 'fields'), years),
    servicePage: per(serviceFixed, servicePages.length),
    serviceField: per(serviceFields, definedFields),
    document: per(watch.total('documents'), documentTitles.length),
    pdfForm: rounded(watch.part('pdfForms', 'fixed')),
    pdfFormField: per(watch.part('pdfForms', 'fields'), formFields),
    review: rounded(watch.total('review')),
    identityCheck: rounded(watch.total('identity')),
    siteChoice: rounded(watch.total('collectionSite')),
    payment: rounded(watch.total('payment')),
  };
  const file = {
    comment:
      'Written by web/e2e/journey-timing.spec.ts (make measure-journey); read by internal/portal/estimate_model.go. Seconds.',
    measuredAt: new Date().toISOString().slice(0, 10),
    units: { legalSteps, addressYears: years, servicePages: servicePages.length, definedFields, formFields },
    rates: RATES,
    steps: watch.steps.map((s) => ({
      ...s,
      machineSeconds: round(s.machineSeconds),
      fixed: rounded(s.fixed),
      fields: rounded(s.fields),
    })),
    model,
  };
  writeFileSync(OUTPUT, `${JSON.stringify(file, null, 2)}\n`);
  const total = watch.steps.reduce(
    (s, x) => ({ low: s.low + x.fixed.low + x.fields.low, high: s.high + x.fixed.high + x.fields.high }),
    { low: 0, high: 0 },
  );
  console.log(
    `journey: ${Math.round(total.low / 60)} to ${Math.round(total.high / 60)} minutes; model written to ${OUTPUT}`,
  );
});
