// The setup journey of issue 5 through the real binary: from `portal invite`
// to /profile.
import { expect, expectAccessible, inviteApplicant, portal, test } from './fixtures';
import { AppShell } from './pom/app-shell';
import { SetupWizardPage } from './pom/setup-wizard';
import { dateField } from './pom/data-pages';

const password = 'correct horse battery staple';

// A whole setup signs eight or so documents: more than the default 30 s on 2 cores.
test.setTimeout(120_000);

async function completeSetup(page: import('@playwright/test').Page, email: string) {
  await page.goto(inviteApplicant(email, 'Riley', 'Stone', '--work-state', 'US-CA', '--work-county', '6075'));
  const wizard = new SetupWizardPage(page);
  await expect(page).toHaveURL(/\/setup/);
  await expectAccessible(page, 'setup: welcome');
  await wizard.welcome();
  await expectAccessible(page, 'setup: create password');
  await wizard.createPassword(password);
  await expect(wizard.heading()).toHaveText('Login');
  await expectAccessible(page, 'setup: login');
  await wizard.login(password);
  await wizard.residency('Texas');
  await expectAccessible(page, 'setup: legal');
  const signed = await wizard.signAllLegalSteps('Riley', 'Stone', '6789');
  // Employment in San Francisco brings the California disclosure and the SF notice.
  expect(signed[0]).toMatch(/electronic/i);
  expect(signed).toContain('Your rights');
  expect(signed.length).toBeGreaterThanOrEqual(6);
  await expectMessagesInTopBar(page);
  await expectAccessible(page, 'setup: personal information');
  await wizard.personalInformation({
    ssn: '123-45-6789',
    dob: '1990-04-12',
    phone: '202 456 1111',
    license: 'D7654321',
    state: 'California',
    drugZip: '78701',
  });
  await expect(page).toHaveURL(/\/profile$/);
}

/**
 * "Document signed" and the like show top right inside the top bar, left of the
 * user menu: over neither the stepper nor the step (they once hid the stepper's
 * last steps at 1280 px), and the menu stays reachable.
 */
async function expectMessagesInTopBar(page: import('@playwright/test').Page) {
  const message = page.locator('li[data-kind]').first();
  await expect(message).toBeVisible();
  const bar = (await new AppShell(page).topBar.boundingBox())!;
  const menu = (await new AppShell(page).userMenuButton.boundingBox())!;
  const steps = (await page.getByRole('list', { name: /setup steps/i }).boundingBox())!;
  await expect(async () => {
    const box = (await message.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(bar.y + bar.height);
    expect(box.x + box.width).toBeLessThanOrEqual(menu.x);
    expect(box.y + box.height).toBeLessThanOrEqual(steps.y);
  }).toPass();
}

test('an invited applicant signs every document and completes setup, landing on /profile', async ({ page }) => {
  await completeSetup(page, 'journey.desktop@example.com');
  await expectAccessible(page, 'profile after setup');
  // The drug-test ZIP code typed in the wizard was kept (finalization.spec.ts's journey A finds it on
  // the collection site).
  await page.goto('/personal');
  await expect(
    page.getByRole('form', { name: 'Personal Information' }).getByLabel('ZIP code for a drug test (optional)'),
  ).toHaveValue('78701');
});

test('setup works on a 360 px wide phone screen', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  // Nothing wider than the screen at any step.
  const overflow = () =>
    page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  await page.goto(
    inviteApplicant('journey.phone@example.com', 'Riley', 'Stone', '--work-state', 'US-CA', '--work-county', '6075'),
  );
  const wizard = new SetupWizardPage(page);
  await expect(wizard.heading()).toHaveText('Welcome');
  // The step list is one line here, not a row that wraps to three.
  await expect(page.getByText('Step 1 of 5:')).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await expectAccessible(page, 'setup at 360 px: welcome');
  await wizard.welcome();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await expectAccessible(page, 'setup at 360 px: create password');
  await wizard.createPassword(password);
  await expect(wizard.heading()).toHaveText('Login');
  await expectAccessible(page, 'setup at 360 px: login');
  await wizard.login(password);
  // Messages after login are compact: together they leave most of the form in view.
  const toasts = page.locator('li[data-kind]');
  await expect(toasts.first()).toBeVisible();
  let covered = 0;
  for (const toast of await toasts.all()) {
    const box = await toast.boundingBox();
    if (!box) continue;
    expect(box.height).toBeLessThanOrEqual(52);
    covered += box.height;
  }
  expect(covered).toBeLessThanOrEqual(740 * 0.15);
  await wizard.residency('Texas');
  expect(await overflow()).toBeLessThanOrEqual(0);
  // A notice's own title is smaller than the step's and wraps little.
  const noticeTitle = page.getByRole('article').first().getByRole('heading').first();
  await expect(noticeTitle).toBeVisible();
  const title = await noticeTitle.evaluate((el) => ({
    size: parseFloat(getComputedStyle(el).fontSize),
    height: el.getBoundingClientRect().height,
  }));
  const stepSize = await page
    .locator('#legal-step-heading')
    .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  expect(title.size).toBeLessThan(stepSize);
  expect(title.height).toBeLessThan(4 * title.size * 1.25);
  await wizard.signAllLegalSteps('Riley', 'Stone', '6789');
  await expect(wizard.heading()).toHaveText('Personal Information');
  expect(await overflow()).toBeLessThanOrEqual(0);
  // A legend that wraps stays inside its box; a checkbox sits on its label's first line.
  const group = page.getByRole('group', { name: 'How should we reach you?' });
  const legend = group.locator(':scope > legend');
  // (A legend drawn across the border starts at the fieldset's top edge; inside, below the border and padding.)
  expect((await legend.boundingBox())!.y - (await group.boundingBox())!.y).toBeGreaterThanOrEqual(8);
  const cdl = page.getByLabel("My job requires a commercial driver's license (CDL)");
  const cdlLabel = page.locator('label', { hasText: "My job requires a commercial driver's license (CDL)" });
  const [boxTop, labelBox] = [(await cdl.boundingBox())!.y, (await cdlLabel.boundingBox())!];
  expect(labelBox.height).toBeGreaterThan(30);
  expect(boxTop - labelBox.y).toBeLessThanOrEqual(6);
  await expectAccessible(page, 'setup at 360 px: personal information');
  await wizard.personalInformation({
    ssn: '123-45-6789',
    dob: '1990-04-12',
    phone: '202 456 1111',
    license: 'D7654321',
    state: 'California',
  });
  await expect(page).toHaveURL(/\/profile$/);
  expect(await overflow()).toBeLessThanOrEqual(0);
});

test('a reload in the middle of the setup personal form keeps what was typed, the SSN included (sealed on the server)', async ({
  page,
}) => {
  await page.goto(inviteApplicant('journey.reload@example.com', 'Riley', 'Stone'));
  const wizard = new SetupWizardPage(page);
  await wizard.welcome();
  await wizard.createPassword(password);
  await wizard.login(password);
  await wizard.residency('Texas');
  await wizard.signAllLegalSteps('Riley', 'Stone', '6789');
  await wizard.fillPersonalInformation({
    ssn: '123-45-6789',
    dob: '1990-04-12',
    phone: '202 456 1111',
    license: 'D7654321',
    state: 'Ohio',
  });
  await wizard.personalForm().getByLabel("Mother's maiden name (optional)").fill('Okafor');
  // The draft is on the server, not in the browser's storage.
  await expect(
    wizard
      .personalForm()
      .getByRole('status')
      .filter({ hasText: /^Draft saved at/ }),
  ).toBeVisible();
  expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain('Okafor');

  await page.reload();
  await expect(wizard.heading()).toHaveText('Personal Information');
  const form = wizard.personalForm();
  await expect(form.getByLabel("Mother's maiden name (optional)")).toHaveValue('Okafor');
  const dob = dateField(form, 'Date of birth');
  await expect(dob.getByLabel('Day', { exact: true })).toHaveValue('12');
  await expect(dob.getByLabel('Month', { exact: true })).toHaveValue('04');
  await expect(dob.getByLabel('Year', { exact: true })).toHaveValue('1990');
  await expect(form.getByLabel('Daytime phone number')).toHaveValue('202 456 1111');
  await expect(form.getByLabel('State that issued it')).toHaveValue('US-OH');
  await expect(form.getByLabel('Social Security number', { exact: true })).toHaveValue('123-45-6789');
  await form.getByRole('button', { name: 'Save and finish' }).click();
  await expect(page).toHaveURL(/\/profile$/);
});

test('a full-profile applicant gets three steps and lands on /profile', async ({ page }) => {
  await page.goto(inviteApplicant('journey.full@example.com', 'Riley', 'Stone', '--full-profile'));
  const wizard = new SetupWizardPage(page);
  await expect(page.getByRole('list', { name: 'Setup steps' }).getByRole('listitem')).toHaveCount(3);
  await wizard.welcome();
  await wizard.createPassword(password);
  await wizard.login(password);
  await expect(page).toHaveURL(/\/profile$/);
});

test('typed personal information survives a reload before it is saved', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('E-mail', { exact: true }).fill(portal.demoUsername);
  await page.getByLabel('Password', { exact: true }).fill(portal.demoPassword);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await page.goto('/personal');
  const form = page.getByRole('form', { name: 'Personal Information' });
  await expect(form.getByLabel('First name')).toHaveValue('Casey');
  await expect(form.getByText('SSN on file ending in 6789')).toBeVisible();
  await form.getByLabel('ZIP code for a drug test (optional)').fill('60601');
  const savedMaiden = await form.getByLabel("Mother's maiden name (optional)").inputValue();
  await form.getByLabel("Mother's maiden name (optional)").fill('Okafor');
  await page.reload();
  await expect(form.getByLabel('ZIP code for a drug test (optional)')).toHaveValue('60601');
  await expect(form.getByLabel("Mother's maiden name (optional)")).toHaveValue('Okafor');
  await expectAccessible(page, 'personal');
  // The draft is on the server now, where the demo applicant's other tests would find it: discarded.
  await form.getByRole('button', { name: 'Discard draft' }).click();
  await page
    .getByRole('dialog', { name: 'Discard your draft?' })
    .getByRole('button', { name: 'Discard draft' })
    .click();
  await expect(form.getByLabel("Mother's maiden name (optional)")).toHaveValue(savedMaiden);
});
