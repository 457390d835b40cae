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

  async save(label = 'Save') {
    await this.form.getByRole('button', { name: label }).click();
  }
}
