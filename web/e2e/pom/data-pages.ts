// Page objects of the pages after setup (issue 10): the hub, the data-page
// navigation, Other Names, Address History, the service pages, the review
// page and the account. Fields are found by their labels, as a person reads
// them; a required field's label ends in "*" for the eye and "(required)" for
// a screen reader.
import { expect, type Locator, type Page } from '@playwright/test';
import { adoptedSignature } from './setup-wizard';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A field's label, whether or not the field is marked optional (components/ui/field.tsx). */
export function label(name: string): RegExp {
  return new RegExp(`^${escape(name)}(\\s*\\(optional\\))?$`);
}

/** A date field (GOV.UK's date input): the group its legend names, holding Day, Month and Year boxes. */
export function dateField(scope: Locator, name: string): Locator {
  return scope.getByRole('group', { name: label(name) });
}

/**
 * Types "1990-04-12" (or a month, "2019-06") into the date field's boxes, then leaves the last box, so
 * the form checks the date as it does when a person moves on.
 */
export async function fillDate(field: Locator, value: string) {
  const [year, month, day] = value.split('-');
  if (day !== undefined) await field.getByLabel('Day', { exact: true }).fill(day);
  await field.getByLabel('Month', { exact: true }).fill(month);
  await field.getByLabel('Year', { exact: true }).fill(year);
  await field.getByLabel('Year', { exact: true }).blur();
}

/** Checks the date field's boxes hold "1990-04-12" (or a month, "2019-06"), as typed by fillDate. */
export async function expectDate(field: Locator, value: string) {
  const [year, month, day] = value.split('-');
  if (day !== undefined) await expect(field.getByLabel('Day', { exact: true })).toHaveValue(day);
  await expect(field.getByLabel('Month', { exact: true })).toHaveValue(month);
  await expect(field.getByLabel('Year', { exact: true })).toHaveValue(year);
}

/** "YYYY-MM" of the month `monthsAgo` months before today (local time, as the app counts). */
export function monthsAgo(months: number, today = new Date()): string {
  const d = new Date(today.getFullYear(), today.getMonth() - months, 1);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
}

/** /profile: greeting, what is still to do before submission, the next step and what is still missing. */
export class HubPage {
  readonly heading: Locator;
  readonly status: Locator;
  readonly checklist: Locator;
  readonly nextStep: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1 });
    this.status = page.getByText('Your screening:');
    this.checklist = page.getByRole('region', { name: 'What is still missing' });
    this.nextStep = page.getByRole('region', { name: 'Your next step' });
  }

  async goto() {
    await this.page.goto('/profile');
    await expect(this.checklist).toBeVisible();
  }

  /** The checklist's link to a page still missing. */
  item(title: string) {
    return this.checklist.getByRole('link', { name: title, exact: true });
  }

  /** Follows the checklist to a page still missing. */
  async follow(title: string) {
    await this.item(title).click();
  }
}

/** The data pages' navigation: a side menu on wide screens, a disclosure button on phones. */
export class DataNav {
  readonly nav: Locator;
  readonly toggle: Locator;

  constructor(readonly page: Page) {
    this.nav = page.getByRole('navigation', { name: 'Your profile' });
    this.toggle = this.nav.getByRole('button', { name: /^Your profile: \d+ of \d+ done$/ });
  }

  /** A page's link; a checklist page's name says "done" or "to do" after its title. */
  link(title: string) {
    return this.nav.getByRole('link', { name: new RegExp(`^${escape(title)}( (done|to do))?$`) });
  }

  /** On a phone: opens the compact menu, then follows one of its links. */
  async goViaCompactMenu(title: string) {
    await expect(this.toggle).toBeVisible();
    await this.toggle.click();
    await expect(this.toggle).toHaveAttribute('aria-expanded', 'true');
    await this.link(title).click();
  }
}

export type AliasValues = {
  type: string;
  firstName: string;
  lastName: string;
  middleName?: string;
  from?: string;
  to?: string;
};

/** /aliases "Other Names". */
export class AliasesPage {
  readonly form: Locator;

  constructor(readonly page: Page) {
    this.form = page.getByRole('form', { name: 'Other Names' });
  }

  name(n: number) {
    return this.form.getByRole('group', { name: `Other name ${n}`, exact: true });
  }

  async fillName(n: number, alias: AliasValues) {
    const group = this.name(n);
    await group.getByLabel(label('Type of name')).selectOption({ label: alias.type });
    await group.getByLabel(label('First name')).fill(alias.firstName);
    if (alias.middleName) await group.getByLabel('Middle name (optional)').fill(alias.middleName);
    await group.getByLabel(label('Last name')).fill(alias.lastName);
    if (alias.from) await fillDate(dateField(group, 'Used from (optional)'), alias.from);
    if (alias.to) await fillDate(dateField(group, 'Used until (optional)'), alias.to);
  }

  async addName() {
    await this.form.getByRole('button', { name: 'Add another name' }).click();
  }

  async saveAndContinue() {
    await this.form.getByRole('button', { name: 'Save and continue' }).click();
  }
}

export type AddressValues = {
  country: string;
  street1: string;
  city: string;
  /** A US state's name, or the region typed abroad. */
  state: string;
  zip: string;
  from: string;
  to?: string;
};

/** /addresses "Address History". */
export class AddressesPage {
  readonly form: Locator;

  constructor(readonly page: Page) {
    this.form = page.getByRole('form', { name: 'Address History' });
  }

  /** 0: the current address; n: "Previous address n". */
  address(n: number) {
    return this.form.getByRole('group', { name: n === 0 ? 'Current address' : `Previous address ${n}`, exact: true });
  }

  field(n: number, name: string) {
    return this.address(n).getByLabel(label(name));
  }

  async fillAddress(n: number, a: AddressValues) {
    const group = this.address(n);
    await group.getByLabel(label('Country')).selectOption({ label: a.country });
    await group.getByLabel(label('Street address')).fill(a.street1);
    await group.getByLabel(label('City')).fill(a.city);
    if (a.country === 'United States') {
      await group.getByLabel(label('State')).selectOption({ label: a.state });
      await group.getByLabel(label('ZIP code')).fill(a.zip);
    } else {
      await group.getByLabel(label('State / province / region')).fill(a.state);
      await group.getByLabel(label('Postal code')).fill(a.zip);
    }
    // Each date is left before the next control is used: a message shown on that blur moves the buttons
    // down between press and release, and the click is lost (see notes/e2e-journey.md).
    await fillDate(dateField(group, 'From'), a.from);
    if (a.to) await fillDate(dateField(group, 'To'), a.to);
  }

  async addAddress() {
    await this.form.getByRole('button', { name: 'Add a previous address' }).click();
  }

  async saveAndContinue() {
    await this.form.getByRole('button', { name: 'Save and continue' }).click();
  }
}

/** A field of a service entry and how to set it. */
export type EntryValue =
  | { kind: 'text'; label: string; value: string }
  | { kind: 'select'; label: string; option: string }
  | { kind: 'radio'; label: string; option: string }
  | { kind: 'check'; label: string }
  | { kind: 'date'; label: string; value: string };

export const text = (l: string, value: string): EntryValue => ({ kind: 'text', label: l, value });
/** A date ("2010-05-01") or a month ("2010-05") typed into its boxes. */
export const date = (l: string, value: string): EntryValue => ({ kind: 'date', label: l, value });
export const choose = (l: string, option: string): EntryValue => ({ kind: 'select', label: l, option });
export const answer = (l: string, option: string): EntryValue => ({ kind: 'radio', label: l, option });
export const tick = (l: string): EntryValue => ({ kind: 'check', label: l });

/** A service-driven page (/education, /employment, /credential, /professional). */
export class ServiceDataPage {
  readonly form: Locator;

  /** `title`: the page's ("Education"); `entry`: what one entry is called ("School"). */
  constructor(
    readonly page: Page,
    readonly title: string,
    readonly entryWord: string,
  ) {
    this.form = page.getByRole('form', { name: title });
  }

  /** Entry n's fieldset: "School 1", or "School 1: Austin Community College" once named. */
  entry(n: number) {
    return this.form.getByRole('group', { name: new RegExp(`^${escape(this.entryWord)} ${n}(: .*)?$`) });
  }

  /**
   * Fills entry n in the order given (a field shown by an earlier answer comes after it), leaving each
   * field as a person does: focus in, answer, focus out, so the form checks it then. (A message that
   * appears or goes on a blur moves what is below it: clicking the next control with the previous one
   * still focused can miss; see notes/e2e-journey.md.)
   */
  async fillEntry(n: number, values: EntryValue[]) {
    const entry = this.entry(n);
    for (const v of values) {
      switch (v.kind) {
        case 'text': {
          const field = entry.getByLabel(label(v.label));
          await field.fill(v.value);
          await field.blur();
          break;
        }
        case 'date':
          await fillDate(dateField(entry, v.label), v.value);
          break;
        case 'select': {
          const field = entry.getByLabel(label(v.label));
          await field.focus();
          await field.selectOption({ label: v.option });
          await field.blur();
          break;
        }
        case 'radio': {
          const radio = entry
            .getByRole('radiogroup', { name: label(v.label) })
            .getByRole('radio', { name: v.option, exact: true });
          await radio.check();
          await radio.blur();
          break;
        }
        case 'check': {
          const box = entry.getByRole('checkbox', { name: v.label, exact: true });
          await box.check();
          await box.blur();
          break;
        }
      }
    }
  }

  async addEntry() {
    await this.form
      .getByRole('button', { name: new RegExp(`^Add another ${escape(this.entryWord.toLowerCase())}$`) })
      .click();
  }

  async saveAndContinue() {
    await this.form.getByRole('button', { name: 'Save and continue' }).click();
  }
}

/** /employment: the employers, and below them one DOT release per DOT-regulated employer. */
export class EmploymentPage extends ServiceDataPage {
  readonly releases: Locator;

  constructor(page: Page) {
    super(page, 'Employment', 'Employer');
    this.releases = page.getByRole('region', { name: 'DOT releases' });
  }

  /** What a save that leaves a DOT release to sign says, above the releases. */
  releaseNotice(employer: string) {
    return this.page.getByRole('status').filter({ hasText: `Sign the DOT release for ${employer}` });
  }

  /**
   * Signs the employer's release in its dialog: the question answered, the names, the SSN's last four, and
   * the signature given earlier in this visit when the dialog offers it, else a typed one (the field empty at
   * first), with a press of "Sign this document".
   */
  async signRelease(employer: string, firstName: string, lastName: string, lastFour: string, answerNo = true) {
    await this.releases.getByRole('button', { name: `Sign the DOT release for ${employer}` }).click();
    const dialog = this.page.getByRole('dialog', { name: `DOT release for ${employer}` });
    await expect(dialog).toBeVisible();
    const form = dialog.getByRole('form', { name: `Sign the DOT release for ${employer}` });
    await expect(form).toBeVisible();
    const sign = form.getByRole('button', { name: 'Sign this document', exact: true });
    // Nothing signs before the question is answered.
    await expect(sign).toBeDisabled();
    await form
      .getByRole('radiogroup', { name: /did you test positive on, or refuse/ })
      .getByRole('radio', { name: answerNo ? 'No' : 'Yes', exact: true })
      .check();
    await form.getByLabel('First name').fill(firstName);
    await form.getByLabel('Last name').fill(lastName);
    await form.getByLabel('Last four digits of your Social Security number').fill(lastFour);
    if (!(await form.getByRole('img', { name: adoptedSignature }).count())) {
      await form.getByRole('button', { name: 'Type your signature instead' }).click();
      const typed = form.getByLabel('Type your full name as your signature');
      await expect(typed).toHaveValue('');
      await typed.fill(`${firstName} ${lastName}`);
    }
    await expect(sign).toBeEnabled();
    await sign.click();
    await expect(dialog).toHaveCount(0);
  }
}

/** /confirmation "Review and submit": the answers with their Change links, and the declaration. */
export class ConfirmationPage {
  readonly heading: Locator;
  readonly missing: Locator;
  readonly declaration: Locator;
  readonly start: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Review and submit' });
    this.missing = page.getByText('Before you can submit, complete:');
    this.declaration = page.getByRole('checkbox', {
      name: 'I confirm that the information I have given is true and complete.',
    });
    this.start = page.getByRole('button', { name: 'Start identity verification' });
  }

  /** Makes the declaration and starts identity verification (which locks the profile). */
  async submit() {
    await this.declaration.check();
    await this.start.click();
  }

  /** The "Change" link of an item, named for a screen reader ("Change other name Ry Stone"). */
  change(thing: string) {
    return this.page.getByRole('link', { name: `Change ${thing}`, exact: true });
  }

  /** The card of one checklist page ("Address History"). */
  group(title: string) {
    return this.page.getByRole('region', { name: new RegExp(`^${escape(title)}( \\(incomplete\\))?$`) });
  }
}

/** /account: notification preferences, password, e-mail address. */
export class AccountPage {
  readonly notifications: Locator;
  readonly password: Locator;
  readonly email: Locator;

  constructor(readonly page: Page) {
    this.notifications = page.getByRole('form', { name: 'Notification preferences' });
    this.password = page.getByRole('form', { name: 'Change password' });
    this.email = page.getByRole('form', { name: 'Change e-mail address' });
  }

  async goto() {
    await this.page.goto('/account');
    await expect(this.notifications).toBeVisible();
  }
}
