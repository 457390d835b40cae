// The setup journey's rough edges of issue 8, through the real binary: an SSN
// mismatch cleared and signed again, a drawn signature that survives a phone
// turning, a click that lands after a blur, and a long typed name on a phone.
import { readFileSync } from 'node:fs';
import { expect, expectAccessible, inviteApplicant, test } from './fixtures';
import { drawSignature, SetupWizardPage } from './pom/setup-wizard';

const password = 'correct horse battery staple';

test.setTimeout(180_000);

async function toLegalSteps(page: import('@playwright/test').Page, email: string) {
  await page.goto(inviteApplicant(email, 'Riley', 'Stone'));
  const wizard = new SetupWizardPage(page);
  await wizard.welcome();
  await wizard.createPassword(password);
  await wizard.login(password);
  await wizard.residency('Texas');
  return wizard;
}

/** The canvas has ink on it (not only its white background). */
function inkOn(canvas: import('@playwright/test').Locator) {
  return canvas.evaluate((el) => {
    const c = el as HTMLCanvasElement;
    const data = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data ?? new Uint8ClampedArray();
    let dark = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i] < 128) dark++;
    return dark;
  });
}

/** The box around the canvas's ink, in canvas pixels. */
function inkBox(canvas: import('@playwright/test').Locator) {
  return canvas.evaluate((el) => {
    const c = el as HTMLCanvasElement;
    const data = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data ?? new Uint8ClampedArray();
    const box = { left: c.width, top: c.height, right: -1, bottom: -1 };
    for (let i = 0; i < data.length; i += 4) {
      if (data[i] >= 128) continue;
      const x = (i / 4) % c.width;
      const y = Math.floor(i / 4 / c.width);
      box.left = Math.min(box.left, x);
      box.right = Math.max(box.right, x);
      box.top = Math.min(box.top, y);
      box.bottom = Math.max(box.bottom, y);
    }
    return box;
  });
}

test('after an SSN mismatch the applicant clears the signatures, signs again and completes setup', async ({ page }) => {
  const wizard = await toLegalSteps(page, 'journey.mismatch@example.com');
  const signed = await wizard.signAllLegalSteps('Riley', 'Stone', '1111');
  expect(signed.some((t) => t.includes('(DOT)'))).toBe(true);
  await wizard.personalInformation({
    ssn: '123-45-6789',
    dob: '1990-04-12',
    phone: '202 456 1111',
    license: 'D7654321',
    state: 'California',
  });

  // The server's sentence shows once, on the SSN field; the panel says what to do.
  await expect(page.getByText('This SSN does not end in 1111')).toBeVisible();
  await expect(page.getByText('This SSN does not end in 1111')).toHaveCount(1);
  await expect(page.getByRole('alert').filter({ hasText: 'clear your signatures and sign again' })).toBeVisible();
  await expectAccessible(page, 'setup: SSN mismatch');
  await page.getByRole('button', { name: 'Clear my signatures and sign again' }).click();

  // Back at the first legal step, which is no longer ticked.
  await expect(wizard.heading()).toHaveText('Review Legal Notices');
  await expect(page.getByRole('list', { name: 'Setup steps' }).getByRole('listitem').nth(3)).toHaveText(
    /Review Legal Notices \(current step\)/,
  );
  // The refused save is no longer a problem of the personal step.
  await expect(page.getByRole('list', { name: 'Setup steps' }).getByRole('listitem').nth(4)).toHaveText(
    '5Personal Information',
  );
  await expect(page.locator('#legal-step-heading')).toHaveText(signed[0]);
  const again = await wizard.signAllLegalSteps('Riley', 'Stone', '6789');
  expect(again).toEqual(signed);
  await wizard.personalInformation({
    ssn: '123-45-6789',
    dob: '1990-04-12',
    phone: '202 456 1111',
    license: 'D7654321',
    state: 'California',
  });
  await expect(page).toHaveURL(/\/profile$/);
  // The page after setup lists them (the rights step may hold several notices: at least one row per step).
  const rows = page.getByRole('region', { name: 'Your signed documents' }).getByRole('listitem');
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBeGreaterThanOrEqual(signed.length);
});

test('on a 360 px phone a long typed name does not widen the page, and a drawn signature survives the phone turning', async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const overflow = () =>
    page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  const wizard = await toLegalSteps(page, 'journey.turn@example.com');
  // The consent step has no signature; sign it to reach one that has.
  await wizard.signLegalStepsUntilSignature('Riley', 'Stone');
  const form = page.getByRole('form', { name: /^Sign: / });
  // Nothing asks for a signature before the pad was used.
  await expect(form.getByRole('img', { name: /Signature drawing area/ })).toHaveAttribute('data-ready', 'true');
  await expect(form.getByText(/Please sign/)).toHaveCount(0);

  await form.getByRole('button', { name: 'Type your signature instead' }).click();
  // Focus goes to the control now shown, not to the page's body.
  await expect(form.getByLabel('Type your full name as your signature')).toBeFocused();
  await form
    .getByLabel('Type your full name as your signature')
    .fill('Riley Stone-Wolfeschlegelsteinhausenbergerdorffvoralternwarengewissenhaft');
  expect(await overflow()).toBeLessThanOrEqual(0);
  await form.getByRole('button', { name: 'Draw your signature instead' }).click();
  await expect(form.getByRole('img', { name: /Signature drawing area/ })).toBeFocused();

  const canvas = form.getByRole('img', { name: /Signature drawing area/ });
  await drawSignature(page, canvas);
  const sign = form.getByRole('button', { name: 'Sign this document', exact: true });
  for (const box of await form.getByRole('checkbox').all()) await box.check();
  await expect(sign).toBeEnabled();
  expect(await inkOn(canvas)).toBeGreaterThan(0);

  // The phone turns, and back, twice: the drawing comes back where and as large as it was drawn.
  const canvasWidth = () => canvas.evaluate((el) => (el as HTMLCanvasElement).width);
  const upright = await canvasWidth();
  const drawn = await inkBox(canvas);
  for (let turn = 0; turn < 2; turn++) {
    await page.setViewportSize({ width: 740, height: 360 });
    await expect.poll(canvasWidth).toBeGreaterThan(upright);
    expect(await inkOn(canvas)).toBeGreaterThan(0);
    await page.setViewportSize({ width: 360, height: 740 });
    await expect.poll(canvasWidth).toBe(upright);
  }
  const back = await inkBox(canvas);
  for (const side of ['left', 'top', 'right', 'bottom'] as const)
    expect(Math.abs(back[side] - drawn[side]), side).toBeLessThanOrEqual(2);
  await expect(sign).toBeEnabled();
  const title = await page.locator('#legal-step-heading').textContent();
  await sign.click();
  await expect(page.getByRole('form', { name: `Sign: ${title}` })).toHaveCount(0);
  await expect(page.locator('#legal-step-heading')).not.toHaveText(title ?? '');
});

test('one click on a checkbox right after a field shows its message lands on the checkbox', async ({ page }) => {
  await toLegalSteps(page, 'journey.click@example.com');
  const form = page.getByRole('form', { name: /^Sign: / });
  // A name that does not match: its message appears when the field loses focus.
  await form.getByLabel('First name').fill('Robin');
  const box = form.getByRole('checkbox').first();
  await box.click();
  await expect(box).toBeChecked();
  await expect(form.getByText('The first name must match the name on your application: Riley')).toBeVisible();
});

test("the browser's Back and Forward move between setup steps", async ({ page }) => {
  await page.goto(inviteApplicant('journey.history@example.com', 'Riley', 'Stone'));
  const wizard = new SetupWizardPage(page);
  await wizard.welcome();
  await expect(wizard.heading()).toHaveText('Create Password');
  await page.goBack();
  await expect(wizard.heading()).toHaveText('Welcome');
  await page.goForward();
  await expect(wizard.heading()).toHaveText('Create Password');
  await wizard.createPassword(password);
  await wizard.login(password);
  await wizard.residency('Texas');
  await expect(page.locator('#legal-step-heading')).toBeVisible();
  // Create Password and Login are done: Back skips them, to Welcome, still inside the app.
  await page.goBack();
  await expect(wizard.heading()).toHaveText('Welcome');
  await expect(page).toHaveURL(/\/setup\?/);
  await page.goForward();
  await expect(wizard.heading()).toHaveText('Review Legal Notices');
});

test('a notice can be downloaded before it is signed', async ({ page }) => {
  await toLegalSteps(page, 'journey.copy@example.com');
  const title = (await page.locator('#legal-step-heading').textContent()) ?? '';
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: `Download a copy: ${title}` }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^esign-v\d+\.html$/);
  const html = readFileSync(await file.path(), 'utf8');
  expect(html).toContain(`<title>${title}</title>`);
  expect(html).toContain('What you agree to');
});
