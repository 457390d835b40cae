// The journeys of issue 10 through the real binary: after setup, the hub's
// checklist leads through every data page (other names, address history,
// education, employment with a DOT release, credentials, references) to the
// review page, which shows everything entered and lets the profile be
// submitted; the same on a 360 px phone; and the account page. Every new
// page is held to "axe-core finds no violations of any impact".
import type { Page, Response } from '@playwright/test';
import { expect, expectAccessible, inviteApplicant, test } from './fixtures';
import {
  AccountPage,
  AddressesPage,
  AliasesPage,
  answer,
  choose,
  ConfirmationPage,
  DataNav,
  date,
  dateField,
  expectDate,
  EmploymentPage,
  fillDate,
  HubPage,
  label,
  monthsAgo,
  ServiceDataPage,
  text,
  tick,
  type AddressValues,
} from './pom/data-pages';
import { PersonalFormPage } from './pom/personal-form';
import { inviteSetUpThroughApi } from './pom/api-setup';
import { SetupWizardPage } from './pom/setup-wizard';

const password = 'correct horse battery staple';
const applicant = { firstName: 'Riley', lastName: 'Stone', lastFour: '6789' };

/** The standard for the pages of issue 10: no axe violation of any impact. */
const axe = (page: Page, context: string) => expectAccessible(page, context, { anyImpact: true });

/** Nothing wider than a 360 px screen. */
async function expectNoSideScroll(page: Page, context: string) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `horizontal scroll on ${context}`).toBeLessThanOrEqual(360);
}

/** An invited applicant goes through the setup wizard (as setup.spec.ts does) and lands on /profile. */
// Setup itself is setup.spec.ts's: these journeys start from its end, set up through the API.
const completeSetup = (page: Page, email: string) => inviteSetUpThroughApi(page, email, applicant, password);

// A field that is not there fails within seconds, not at the end of the test's minutes.
test.use({ actionTimeout: 15_000 });

const isSubjectRead = (r: Response) =>
  new URL(r.url()).pathname === '/api/v2/user/subject' && r.request().method() === 'GET' && r.ok();

// Three addresses over the seven years asked for: where the applicant lives now (US), before that (US), and
// before that in Canada, reaching back past the start of the seven years. Neighbours share a boundary month.
const addresses: AddressValues[] = [
  {
    country: 'United States',
    street1: '1400 Congress Ave',
    city: 'Austin',
    state: 'Texas',
    zip: '78701',
    from: monthsAgo(38),
  },
  {
    country: 'United States',
    street1: '2500 Elm St',
    city: 'Dallas',
    state: 'Texas',
    zip: '75226',
    from: monthsAgo(62),
    to: monthsAgo(38),
  },
  {
    country: 'Canada',
    street1: '24 Sussex Dr',
    city: 'Ottawa',
    state: 'ON',
    zip: 'K1M 1M4',
    from: monthsAgo(100),
    to: monthsAgo(62),
  },
];

const school = [
  text('School name', 'Austin Community College'),
  choose('Type of school', 'Community college'),
  text('City', 'Austin'),
  choose('Country', 'United States'),
  choose('State', 'Texas'),
  date('Attended from', '2008-09'),
  date('Attended to', '2010-05'),
  answer('Did you graduate?', 'Yes'),
  choose('Degree or diploma', 'Associate degree'),
  text('Major or field of study', 'Logistics'),
];

const dotEmployer = 'Lone Star Freight';
const employers = [
  [
    text('Employer name', dotEmployer),
    text('City', 'Austin'),
    choose('Country', 'United States'),
    choose('State', 'Texas'),
    text('Employer phone number', '(512) 555-0100'),
    text('Job title', 'Truck driver'),
    date('Start date', `${monthsAgo(30)}-01`),
    tick('I currently work here'),
    answer('May we contact this employer?', 'No'),
    tick('This employer was regulated by the U.S. Department of Transportation (DOT)'),
    choose('DOT agency', 'FMCSA (motor carriers)'),
  ],
  [
    text('Employer name', 'Riverside Warehousing'),
    text('City', 'Dallas'),
    choose('Country', 'United States'),
    choose('State', 'Texas'),
    text('Employer phone number', '(214) 555-0199'),
    text('Job title', 'Warehouse associate'),
    date('Start date', `${monthsAgo(60)}-01`),
    date('End date', `${monthsAgo(31)}-15`),
    answer('May we contact this employer?', 'Yes'),
    text("Supervisor's name", 'Dana Whitfield'),
    text('Reason for leaving', 'Moved on to a driving job.'),
  ],
];

const licenceNumber = 'CDL-4821937';
const credential = [
  choose('Type', 'License'),
  text('Name of the license or credential', "Commercial Driver's License class A"),
  text('Issuing authority', 'Texas Department of Public Safety'),
  choose('State', 'Texas'),
  text('License or certificate number', licenceNumber),
  date('Issued on', '2022-01-10'),
  date('Expires on', '2030-01-10'),
];

const reference = [
  text('Full name', 'Morgan Blake'),
  choose('Relationship to you', 'Supervisor or manager'),
  text('Company', 'Lone Star Freight'),
  text('Phone number', '(512) 555-0142'),
  text('E-mail address', 'morgan.blake@example.com'),
  text('Years you have known them', '3'),
];

test('desktop: after setup the hub checklist leads through every page to a review that is ready to submit', async ({
  page,
}) => {
  // Every page is filled in: a minute or more on 2 cores.
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await completeSetup(page, `journey10.desktop.${Date.now()}@example.com`);

  // The hub: greeting, status, checklist (personal information was done by the setup).
  const hub = new HubPage(page);
  await expect(hub.heading).toHaveText(`Welcome, ${applicant.firstName}`);
  // Before submission the status line says what is still to do, never "Pending".
  await expect(hub.status).toContainText('Not submitted yet');
  await expect(hub.status).toContainText('Still to do: Other Names, Address History, Education');
  await expect(hub.status).not.toContainText('Pending');
  const pages = ['Other Names', 'Address History', 'Education', 'Employment', 'Licenses and Credentials'];
  for (const title of [...pages, 'Professional References']) await expect(hub.item(title)).toBeVisible();
  await expect(hub.item('Personal Information')).toHaveCount(0);
  await expect(hub.nextStep.getByRole('link', { name: 'Continue with Other Names' })).toBeVisible();
  await axe(page, 'hub after setup');

  // Other names: two of them.
  await hub.follow('Other Names');
  await expect(page).toHaveURL(/\/aliases$/);
  const aliases = new AliasesPage(page);
  await expect(aliases.form).toBeVisible();
  await axe(page, 'aliases');
  await aliases.fillName(1, { type: 'Maiden name', firstName: 'Riley', middleName: 'Ann', lastName: 'Carter' });
  await aliases.addName();
  await aliases.fillName(2, { type: 'Nickname', firstName: 'Ry', lastName: 'Stone', from: '2012-01' });
  await aliases.saveAndContinue();
  await expect(page.getByText('Other Names saved', { exact: true })).toBeVisible();

  // Address history: three addresses over seven years; the first save is refused on a ZIP outside its state.
  await expect(page).toHaveURL(/\/addresses$/);
  const history = new AddressesPage(page);
  await expect(history.form).toBeVisible();
  await axe(page, 'addresses');
  await history.fillAddress(0, { ...addresses[0], zip: '10001' });
  await history.addAddress();
  await history.fillAddress(1, addresses[1]);
  await history.addAddress();
  await history.fillAddress(2, addresses[2]);
  await expect(history.form.getByText(/Your addresses cover every month since/)).toBeVisible();
  const refused = page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/api/v2/user/subject/address' && r.request().method() === 'PUT',
  );
  await history.saveAndContinue();
  expect((await refused).status()).toBe(422);
  const zip = history.field(0, 'ZIP code');
  await expect(zip).toHaveAttribute('aria-invalid', 'true');
  await expect(history.address(0).getByText('ZIP code 10001 is not in Texas.')).toBeVisible();
  await expect(page).toHaveURL(/\/addresses$/);
  // Nothing typed is lost.
  await expect(history.field(0, 'Street address')).toHaveValue(addresses[0].street1);
  await expect(history.field(0, 'City')).toHaveValue(addresses[0].city);
  await expectDate(dateField(history.address(0), 'From'), addresses[0].from);
  await expect(history.field(1, 'Street address')).toHaveValue(addresses[1].street1);
  await expectDate(dateField(history.address(1), 'To'), addresses[1].to!);
  await expect(history.field(2, 'Street address')).toHaveValue(addresses[2].street1);
  await expect(history.field(2, 'Postal code')).toHaveValue(addresses[2].zip);
  await expect(history.field(2, 'Country')).toHaveValue('CA');
  await axe(page, 'addresses after a refused save');
  await zip.fill(addresses[0].zip);
  await history.saveAndContinue();
  await expect(page.getByText('Addresses saved', { exact: true })).toBeVisible();

  // Education: one school.
  await expect(page).toHaveURL(/\/education$/);
  const education = new ServiceDataPage(page, 'Education', 'School');
  await expect(education.form).toBeVisible();
  await axe(page, 'education');
  await education.fillEntry(1, school);
  await education.saveAndContinue();
  await expect(page.getByText('Profile successfully saved', { exact: true })).toBeVisible();

  // Employment: two employers, one DOT-regulated.
  await expect(page).toHaveURL(/\/employment$/);
  const employment = new EmploymentPage(page);
  await expect(employment.form).toBeVisible();
  await axe(page, 'employment');
  await employment.fillEntry(1, employers[0]);
  await employment.addEntry();
  await employment.fillEntry(2, employers[1]);
  await employment.saveAndContinue();

  // The DOT employer needs its release: the page stays, says why the list grew and offers it at once.
  const notice = employment.releaseNotice(dotEmployer);
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('a DOT release for it was added to your list');
  await expect(page).toHaveURL(/\/employment$/);
  await expect(employment.releases.getByText('Not signed yet')).toBeVisible();
  await axe(page, 'employment with its DOT release');
  await notice.getByRole('button', { name: 'Go to the DOT release' }).click();
  await expect(employment.releases.getByRole('heading', { name: 'DOT releases' })).toBeFocused();
  await employment.signRelease(dotEmployer, applicant.firstName, applicant.lastName, applicant.lastFour);
  await expect(page.getByText(`DOT release signed for ${dotEmployer}`, { exact: true })).toBeVisible();
  await expect(employment.releases.getByText(/^Signed /)).toBeVisible();
  await expect(
    employment.releases.getByRole('link', { name: `View and print the DOT release for ${dotEmployer}` }),
  ).toBeVisible();
  await expect(page.getByText('Every DOT release is signed.')).toBeVisible();

  // Credentials and references: on from the signed release.
  await page.getByRole('link', { name: 'Continue with Licenses and Credentials' }).click();
  await expect(page).toHaveURL(/\/credential$/);
  const credentials = new ServiceDataPage(page, 'Licenses and Credentials', 'Credential');
  await expect(credentials.form).toBeVisible();
  await axe(page, 'credential');
  await credentials.fillEntry(1, credential);
  await credentials.saveAndContinue();

  await expect(page).toHaveURL(/\/professional$/);
  const references = new ServiceDataPage(page, 'Professional References', 'Reference');
  await expect(references.form).toBeVisible();
  await axe(page, 'professional');
  await references.fillEntry(1, reference);
  await references.saveAndContinue();
  // Nothing is missing any more: on to the review.
  await expect(page).toHaveURL(/\/confirmation$/);

  // After a reload (nothing from the cache), the review shows every value entered.
  // The server says the profile is ready. A read still in flight when the reload starts has no body
  // afterwards: only an answer that can be read counts.
  const ready = page.waitForResponse(async (r) => {
    if (!isSubjectRead(r)) return false;
    const body = (await r.json().catch(() => null)) as { payload: { readyToSubmit: boolean } } | null;
    return body?.payload.readyToSubmit === true;
  });
  await page.reload();
  await ready;
  const review = new ConfirmationPage(page);
  await expect(review.heading).toBeVisible();
  await expect(review.group('Personal Information')).toContainText(`${applicant.firstName}`);
  await expect(review.group('Personal Information')).toContainText('ending in 6789');
  const otherNames = review.group('Other Names');
  await expect(otherNames).toContainText('Riley Ann Carter');
  await expect(otherNames).toContainText('Maiden name');
  await expect(otherNames).toContainText('Ry Stone');
  const addressGroup = review.group('Address History');
  for (const a of addresses) await expect(addressGroup).toContainText(a.street1);
  await expect(addressGroup).toContainText('Ottawa, ON, K1M 1M4, CA');
  await expect(addressGroup).toContainText('78701');
  await expect(review.group('Education')).toContainText('Austin Community College');
  await expect(review.group('Education')).toContainText('Associate degree');
  const jobs = review.group('Employment');
  await expect(jobs).toContainText(dotEmployer);
  await expect(jobs).toContainText('Riverside Warehousing');
  await expect(jobs).toContainText('FMCSA (motor carriers)');
  await expect(jobs).toContainText('Warehouse associate');
  await expect(jobs).toContainText('Dana Whitfield');
  await expect(review.group('Licenses and Credentials')).toContainText('Texas Department of Public Safety');
  await expect(review.group('Licenses and Credentials')).toContainText(licenceNumber);
  await expect(review.group('Professional References')).toContainText('Morgan Blake');
  await expect(review.group('Professional References')).toContainText('morgan.blake@example.com');
  await expect(review.missing).toHaveCount(0);
  await expect(page.getByText('(incomplete)')).toHaveCount(0);
  await expect(review.start).toBeEnabled();
  await expect(review.group('Personal Information')).toContainText("Driver's license");
  await expect(review.group('DOT Releases')).toContainText(dotEmployer);
  await axe(page, 'confirmation');

  // A Change link leads to the page and, once it is saved, back to the review.
  await review.change('other name Ry Stone').click();
  await expect(page).toHaveURL(/\/aliases\?return=review$/);
  await expect(aliases.form).toBeVisible();
  await aliases.saveAndContinue();
  await expect(page).toHaveURL(/\/confirmation$/);
  await expect(review.heading).toBeVisible();

  // Starting is refused until the declaration is made; nothing is locked before.
  await review.start.click();
  await expect(page.getByRole('link', { name: /^Confirm that the information you have given is true/ })).toBeVisible();
  await expect(page).toHaveURL(/\/confirmation$/);
  await axe(page, 'confirmation, declaration missing');

  // The hub says so too.
  await hub.goto();
  await expect(hub.checklist.getByText('Nothing: every page is complete.')).toBeVisible();
  await expect(hub.nextStep.getByRole('link', { name: 'Review and submit' })).toBeVisible();
  await axe(page, 'hub, everything done');

  await new AccountPage(page).goto();
  await axe(page, 'account');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

  test('phone, 360 px: every page once, the compact menu between pages, nothing wider than the screen', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await completeSetup(page, `journey10.phone.${Date.now()}@example.com`);
    const nav = new DataNav(page);
    const hub = new HubPage(page);
    await expect(hub.heading).toHaveText(`Welcome, ${applicant.firstName}`);
    await expect(hub.checklist).toBeVisible();
    await expectNoSideScroll(page, 'hub');
    await axe(page, 'hub at 360 px');

    // The compact menu (the side menu does not fit) leads to Other Names.
    await expect(nav.toggle).toBeVisible();
    await nav.toggle.click();
    await expect(nav.link('Other Names')).toBeVisible();
    await expectNoSideScroll(page, 'hub with the compact menu open');
    await nav.toggle.click();
    await expect(nav.link('Other Names')).toBeHidden();
    await nav.goViaCompactMenu('Other Names');
    await expect(page).toHaveURL(/\/aliases$/);
    const aliases = new AliasesPage(page);
    await expect(aliases.form).toBeVisible();
    await expectNoSideScroll(page, 'aliases');
    await axe(page, 'aliases at 360 px');
    await aliases.fillName(1, { type: 'Previous legal name', firstName: 'Riley', lastName: 'Carter', from: '2010-01' });
    await aliases.saveAndContinue();

    await expect(page).toHaveURL(/\/addresses$/);
    const history = new AddressesPage(page);
    await expect(history.form).toBeVisible();
    await history.fillAddress(0, { ...addresses[0], from: monthsAgo(90) });
    await expect(history.form.getByText(/Your addresses cover every month since/)).toBeVisible();
    await expectNoSideScroll(page, 'addresses');
    await axe(page, 'addresses at 360 px');
    await history.saveAndContinue();

    await expect(page).toHaveURL(/\/education$/);
    const education = new ServiceDataPage(page, 'Education', 'School');
    await expect(education.form).toBeVisible();
    await education.fillEntry(1, school);
    await expectNoSideScroll(page, 'education');
    await axe(page, 'education at 360 px');
    await education.saveAndContinue();

    await expect(page).toHaveURL(/\/employment$/);
    const employment = new EmploymentPage(page);
    await expect(employment.form).toBeVisible();
    await employment.fillEntry(1, employers[1]);
    await expectNoSideScroll(page, 'employment');
    await axe(page, 'employment at 360 px');
    await employment.saveAndContinue();

    await expect(page).toHaveURL(/\/credential$/);
    const credentials = new ServiceDataPage(page, 'Licenses and Credentials', 'Credential');
    await expect(credentials.form).toBeVisible();
    await credentials.fillEntry(1, credential);
    await expectNoSideScroll(page, 'credential');
    await axe(page, 'credential at 360 px');
    await credentials.saveAndContinue();

    await expect(page).toHaveURL(/\/professional$/);
    const references = new ServiceDataPage(page, 'Professional References', 'Reference');
    await expect(references.form).toBeVisible();
    await references.fillEntry(1, reference);
    await expectNoSideScroll(page, 'professional');
    await axe(page, 'professional at 360 px');
    await references.saveAndContinue();

    await expect(page).toHaveURL(/\/confirmation$/);
    const review = new ConfirmationPage(page);
    await expect(review.heading).toBeVisible();
    await expect(review.group('Other Names')).toContainText('Riley Carter');
    await expect(review.group('Employment')).toContainText('Riverside Warehousing');
    await expect(review.start).toBeEnabled();
    await expectNoSideScroll(page, 'confirmation');
    await axe(page, 'confirmation at 360 px');

    // The compact menu once more, to the account.
    await nav.goViaCompactMenu('Account');
    await expect(page).toHaveURL(/\/account$/);
    await expect(new AccountPage(page).notifications).toBeVisible();
    await expectNoSideScroll(page, 'account');
    await axe(page, 'account at 360 px');
  });
});

test('account: notification preferences are saved, a wrong current password is refused on its field; /register explains the invitation', async ({
  page,
}) => {
  test.setTimeout(90_000);
  // Logged out, /register tells how to get an account: by the employer's invitation.
  await page.goto('/register');
  await expect(page.getByRole('heading', { level: 1, name: 'Register' })).toBeVisible();
  await expect(page.getByText(/Accounts on this portal are opened by invitation/)).toBeVisible();
  await expect(page.getByText(/Open the invitation link in that e-mail/)).toBeVisible();
  await expect(page.getByText(/ask the employer to send you a new invitation/)).toBeVisible();
  await axe(page, 'register without a token');

  // A full-profile applicant (three setup steps) saves personal information, which holds the preferences.
  await page.goto(inviteApplicant(`journey10.account.${Date.now()}@example.com`, 'Avery', 'Quinn', '--full-profile'));
  const wizard = new SetupWizardPage(page);
  await wizard.welcome();
  await wizard.createPassword(password);
  await wizard.login(password);
  await expect(page).toHaveURL(/\/profile$/);
  await page.goto('/personal');
  const personal = new PersonalFormPage(page);
  await expect(personal.form).toBeVisible();
  await personal.form.getByLabel('No middle name').check();
  await personal.form.getByLabel('Social Security number', { exact: true }).fill('123-45-6789');
  await personal.form.getByLabel('Confirm Social Security number').fill('123-45-6789');
  await fillDate(dateField(personal.form, 'Date of birth'), '1988-02-03');
  await fillDate(dateField(personal.form, 'Confirm date of birth'), '1988-02-03');
  await personal.form.getByLabel('Daytime phone number').fill('202 456 1111');
  await personal.form.getByLabel("Driver's license number").fill('D1112223');
  await personal.form.getByLabel('State that issued it').selectOption({ label: 'Texas' });
  await personal.save();
  await expect(page.getByText('Personal Information saved', { exact: true })).toBeVisible();
  // On to the next page still to do, not back on the finished one.
  await expect(page).toHaveURL(/\/aliases$/);

  const account = new AccountPage(page);
  await new DataNav(page).link('Account').click();
  await expect(account.notifications).toBeVisible();
  await axe(page, 'account');

  // Notification preferences: e-mail and text.
  const prefs = account.notifications;
  await prefs.getByRole('radio', { name: 'E-mail and text message' }).check();
  await prefs.getByLabel(label('Mobile number for text messages')).fill('202 555 0143');
  await prefs.getByRole('button', { name: 'Save notification preferences' }).click();
  await expect(page.getByText('Notification preferences are saved', { exact: true })).toBeVisible();
  await page.reload();
  await expect(prefs.getByRole('radio', { name: 'E-mail and text message' })).toBeChecked();
  await expect(prefs.getByLabel(label('Mobile number for text messages'))).toHaveValue('2025550143');

  // A wrong current password: refused on that field, the message next to it.
  const change = account.password;
  await change.getByLabel(label('Current password')).fill('not my password at all');
  await change.getByLabel(label('New password')).fill('another horse battery staple');
  await change.getByLabel(label('Confirm new password')).fill('another horse battery staple');
  await change.getByRole('button', { name: 'Change password' }).click();
  const current = change.getByLabel(label('Current password'));
  await expect(current).toHaveAttribute('aria-invalid', 'true');
  await expect(change.getByText('The current password is not correct.')).toBeVisible();
  await expect(current).toBeFocused();
  await axe(page, 'account after a refused password change');
});

// Two bugs the journeys found, each kept as the behaviour it should have: messages only on fields
// reached (lib/form.ts shownError), and a press on a button right after typing is one click (lib/keep-focus.ts).
test.describe('list pages', () => {
  /** A full-profile applicant: three setup steps, then the data pages. */
  async function fullProfileApplicant(page: Page, email: string) {
    await page.goto(inviteApplicant(email, 'Avery', 'Quinn', '--full-profile'));
    const wizard = new SetupWizardPage(page);
    await wizard.welcome();
    await wizard.createPassword(password);
    await wizard.login(password);
    await expect(page).toHaveURL(/\/profile$/);
  }

  test('adding an employer shows no message on fields nobody has touched yet', async ({ page }) => {
    await fullProfileApplicant(page, `journey10.bug.add.${Date.now()}@example.com`);
    await page.goto('/employment');
    const employment = new EmploymentPage(page);
    await expect(employment.form).toBeVisible();
    await employment.addEntry();
    await expect(employment.entry(2)).toBeVisible();
    // react-hook-form checks the whole list after an append in onTouched mode: fields nobody reached stay quiet.
    await expect(employment.form.getByText(/ is required\.$/)).toHaveCount(0);
  });

  test('one click on "Add a previous address" right after typing a date adds the address', async ({ page }) => {
    await fullProfileApplicant(page, `journey10.bug.click.${Date.now()}@example.com`);
    await page.goto('/addresses');
    const history = new AddressesPage(page);
    await expect(history.form).toBeVisible();
    // Focus still in From: were the press to blur it, a message it brings would push the button down
    // before the release, and the click would be lost.
    const [year, month] = monthsAgo(12).split('-');
    const from = dateField(history.address(0), 'From');
    await from.getByLabel('Month', { exact: true }).fill(month);
    await from.getByLabel('Year', { exact: true }).fill(year);
    await history.addAddress();
    await expect(history.address(1)).toBeVisible();
  });
});
