import type { Locator, Page } from '@playwright/test';

/** The login page as a person sees it. */
export class LoginPage {
  readonly username: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  readonly forgotPassword: Locator;

  constructor(readonly page: Page) {
    // The login's username is the applicant's e-mail address, and says so.
    this.username = page.getByLabel('E-mail', { exact: true });
    // exact: the Show password toggle's name holds the word too.
    this.password = page.getByLabel('Password', { exact: true });
    this.submit = page.getByRole('button', { name: 'Login' });
    this.forgotPassword = page.getByRole('button', { name: 'Forgot Password' });
  }

  async goto() {
    await this.page.goto('/login');
    await this.username.waitFor();
  }

  async logIn(username: string, password: string) {
    await this.username.fill(username);
    await this.password.fill(password);
    await this.submit.click();
  }
}
