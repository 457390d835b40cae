// Page objects of the disputes (issue 24): the new dispute's questions and check-answers, a dispute's
// page, and `portal dispute` as an operator runs it.
import type { Locator, Page } from '@playwright/test';
import { portalCli } from '../fixtures';

export class DisputeFormPage {
  readonly heading: Locator;
  readonly checkHeading: Locator;
  readonly explanation: Locator;
  readonly evidence: Locator;
  readonly continue: Locator;
  readonly send: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Dispute something in your report' });
    this.checkHeading = page.getByRole('heading', { level: 1, name: 'Check your answers' });
    this.explanation = page.getByRole('textbox', { name: 'Explain what is wrong' });
    this.evidence = page.getByLabel('Evidence (optional)', { exact: true }).and(page.locator('input[type=file]'));
    this.continue = page.getByRole('button', { name: 'Continue' });
    this.send = page.getByRole('button', { name: 'Send dispute' });
  }

  reason(name: RegExp | string) {
    return this.page.getByRole('radiogroup', { name: 'What is wrong?' }).getByRole('radio', { name });
  }

  part(name: string) {
    return this.page
      .getByRole('radiogroup', { name: 'Which part of your report is it about?' })
      .getByRole('radio', { name });
  }
}

export class DisputePage {
  readonly progress: Locator;
  readonly messages: Locator;
  readonly addInformation: Locator;

  constructor(readonly page: Page) {
    this.progress = page.getByRole('region', { name: 'Progress' });
    this.messages = page.getByRole('region', { name: 'Messages' });
    this.addInformation = page.getByRole('region', { name: 'Add information' });
  }

  heading(part: string) {
    return this.page.getByRole('heading', { level: 1, name: `Your dispute of the ${part} check` });
  }

  /** The timeline's current step. */
  current() {
    return this.progress.locator('li[aria-current="step"]');
  }
}

/** `portal dispute WORD --data DIR ...`, as an operator runs it; its output. */
export function disputeCli(word: 'list' | 'show' | 'answer' | 'resolve', ...args: string[]): string {
  return portalCli(`dispute ${word}`, ...args);
}
