// Page objects of the setup wizard's steps, and the way a fresh applicant gets through them.
import { expect, type Page } from '@playwright/test';
import { portal, portalCli } from '../fixtures';
import { dateField, fillDate } from './data-pages';

export type PersonalValues = {
  ssn: string;
  dob: string;
  phone: string;
  license: string;
  state: string;
  /** Where the applicant will take a drug test (optional on the form). */
  drugZip?: string;
};

export class SetupWizardPage {
  constructor(readonly page: Page) {}

  heading() {
    return this.page.locator('#setup-step-heading');
  }

  async welcome() {
    await expect(this.heading()).toHaveText('Welcome');
    await this.page.getByRole('button', { name: 'Next' }).click();
  }

  async createPassword(password: string) {
    await expect(this.heading()).toHaveText('Create Password');
    await this.page.getByLabel('Password', { exact: true }).fill(password);
    await this.page.getByLabel('Confirm password').fill(password);
    await this.page.getByRole('button', { name: 'Create password' }).click();
  }

  async login(password: string) {
    await expect(this.heading()).toHaveText('Login');
    await expect(this.page.getByLabel('E-mail', { exact: true })).toHaveAttribute('readonly', '');
    await this.page.getByLabel('Password', { exact: true }).fill(password);
    await this.page.getByRole('button', { name: 'Login' }).click();
  }

  /** Where the applicant lives; the county where one of the employer's notices depends on it. */
  async residency(stateName: string, countyName?: string) {
    await expect(this.page.getByRole('heading', { name: 'Where do you live?' })).toBeVisible();
    await this.page.getByLabel('State', { exact: true }).selectOption({ label: stateName });
    if (countyName) await this.page.getByLabel('County', { exact: true }).selectOption({ label: countyName });
    await this.page.getByRole('button', { name: 'Continue' }).click();
  }

  /**
   * Signs every legal step. The first that needs a signature asks for it (typed,
   * the field empty at first); the next ones offer it, and each is signed by its
   * own press of "Sign this document"; the first of those takes a drawn signature
   * of its own instead ("Use a different signature for this document"). A pad
   * shown again (the page was loaded anew, which forgets the signature) is drawn
   * on. `onStep` looks at each step before it is filled in.
   */
  async signAllLegalSteps(
    firstName: string,
    lastName: string,
    lastFourSSN: string,
    onStep?: (title: string) => Promise<void>,
  ): Promise<string[]> {
    const signed: string[] = [];
    let typedUsed = false;
    let ownUsed = false;
    for (let guard = 0; guard < 20; guard++) {
      const heading = await this.heading().textContent();
      if (heading === 'Personal Information') return signed;
      const step = this.page.locator('#legal-step-heading');
      await expect(step).toBeVisible();
      const title = (await step.textContent()) ?? '';
      const form = this.page.getByRole('form', { name: `Sign: ${title}` });
      await expect(form).toBeVisible();
      await onStep?.(title);
      if (await form.getByLabel('First name').count()) {
        await form.getByLabel('First name').fill(firstName);
        await form.getByLabel('Last name').fill(lastName);
      }
      if (await form.getByLabel('Last four digits of your Social Security number').count()) {
        await form.getByLabel('Last four digits of your Social Security number').fill(lastFourSSN);
      }
      const boxes = form.getByRole('checkbox');
      for (let i = 0; i < (await boxes.count()); i++) {
        const box = boxes.nth(i);
        const label = (await box.evaluate((el) => (el as HTMLInputElement).labels?.[0]?.textContent)) ?? '';
        if (!label.includes('do not have a US Social Security')) await box.check();
      }
      const pad = form.getByRole('img', { name: /Signature drawing area/ });
      if (await form.getByRole('img', { name: adoptedSignature }).count()) {
        if (!ownUsed) {
          ownUsed = true;
          await form.getByRole('button', { name: 'Use a different signature for this document' }).click();
          await expect(pad).toBeFocused();
          await drawSignature(this.page, pad);
        }
      } else if (await pad.count()) {
        if (!typedUsed) {
          typedUsed = true;
          await form.getByRole('button', { name: 'Type your signature instead' }).click();
          await expect(form.getByLabel('Type your full name as your signature')).toHaveValue('');
          await form.getByLabel('Type your full name as your signature').fill(`${firstName} ${lastName}`);
        } else {
          await drawSignature(this.page, pad);
        }
      }
      await form.getByRole('button', { name: /^(Sign this document|Agree and continue)$/ }).click();
      await expect(this.page.getByRole('form', { name: `Sign: ${title}` })).toHaveCount(0);
      signed.push(title);
      // The next step, or (after the last one) the wizard's next step: the
      // signed step shows for a moment in between.
      await expect(async () => {
        const wizardStep = await this.heading().textContent();
        const legalStep = await this.page
          .locator('#legal-step-heading')
          .textContent({ timeout: 200 })
          .catch(() => null);
        expect(wizardStep === 'Personal Information' || (legalStep !== null && legalStep !== title)).toBe(true);
      }).toPass();
    }
    throw new Error(`legal steps did not end; signed ${signed.join(', ')}`);
  }

  /** Signs the legal steps that need no signature (the e-sign consent) until one asks for a signature. */
  async signLegalStepsUntilSignature(firstName: string, lastName: string) {
    for (let guard = 0; guard < 5; guard++) {
      const title = (await this.page.locator('#legal-step-heading').textContent()) ?? '';
      const form = this.page.getByRole('form', { name: `Sign: ${title}` });
      await expect(form).toBeVisible();
      if (await form.getByRole('img', { name: /Signature drawing area/ }).count()) return;
      if (await form.getByRole('img', { name: adoptedSignature }).count()) return;
      if (await form.getByLabel('First name').count()) {
        await form.getByLabel('First name').fill(firstName);
        await form.getByLabel('Last name').fill(lastName);
      }
      for (const box of await form.getByRole('checkbox').all()) await box.check();
      await form.getByRole('button', { name: /^(Sign this document|Agree and continue)$/ }).click();
      await expect(form).toHaveCount(0);
    }
    throw new Error('no legal step asks for a signature');
  }

  personalForm() {
    return this.page.getByRole('form', { name: 'Personal Information' });
  }

  async fillPersonalInformation(values: PersonalValues) {
    await expect(this.heading()).toHaveText('Personal Information');
    const form = this.personalForm();
    await form.getByLabel('No middle name').check();
    await form.getByLabel('Social Security number', { exact: true }).fill(values.ssn);
    await form.getByLabel('Confirm Social Security number').fill(values.ssn);
    await fillDate(dateField(form, 'Date of birth'), values.dob);
    await fillDate(dateField(form, 'Confirm date of birth'), values.dob);
    await form.getByLabel('Daytime phone number').fill(values.phone);
    await form.getByLabel("Driver's license number").fill(values.license);
    await form.getByLabel('State that issued it').selectOption({ label: values.state });
    if (values.drugZip) await form.getByLabel('ZIP code for a drug test (optional)').fill(values.drugZip);
  }

  async personalInformation(values: PersonalValues) {
    await this.fillPersonalInformation(values);
    await this.personalForm().getByRole('button', { name: 'Save and finish' }).click();
  }
}

/** The image of the signature adopted on an earlier document, which a later one offers. */
export const adoptedSignature = 'Your signature as you gave it';

export async function drawSignature(page: Page, canvas: ReturnType<Page['locator']>) {
  // The drawing library loads on demand.
  await expect(canvas).toHaveAttribute('data-ready', 'true');
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  if (!box) throw new Error('no signature canvas');
  await page.mouse.move(box.x + 20, box.y + box.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) {
    await page.mouse.move(box.x + 20 + i * 15, box.y + box.height / 2 + (i % 2 ? -20 : 20), { steps: 2 });
  }
  await page.mouse.up();
}

export type Applicant = { firstName: string; lastName: string; lastFour: string };

/** `portal invite` of an applicant working in San Francisco: the subject id it printed ("(subject 12)") and the link. */
export function inviteToSanFrancisco(email: string, applicant: Applicant): { subjectId: number; link: string } {
  const out = portalCli(
    'invite',
    '--email',
    email,
    '--first-name',
    applicant.firstName,
    '--last-name',
    applicant.lastName,
    '--base-url',
    portal.baseURL,
    '--work-state',
    'US-CA',
    '--work-county',
    '6075',
  );
  const subject = /\(subject (\d+)\)/.exec(out);
  if (!subject) throw new Error(`portal invite printed no subject id:\n${out}`);
  return { subjectId: Number(subject[1]), link: out.trim().split('\n').pop() as string };
}
