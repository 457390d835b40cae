import type { Locator, Page } from '@playwright/test';

/** The personal information form, on /personal or as the wizard's last step. */
export class PersonalFormPage {
  readonly form: Locator;
  readonly summary: Locator;

  constructor(readonly page: Page) {
    this.form = page.getByRole('form', { name: 'Personal Information' });
    this.summary = this.form.getByRole('alert');
  }

  field(label: string) {
    return this.form.getByLabel(label, { exact: true });
  }

  /** /personal says "Save and continue"; the setup wizard's step passes its own label. */
  async save(label = 'Save and continue') {
    await this.form.getByRole('button', { name: label }).click();
  }
}
