import type { Locator, Page } from '@playwright/test';
import { AppShell } from './app-shell';

/** The chat with the employer: the sheet the user menu's "Chat with Support" opens. */
export class ChatPanel {
  readonly shell: AppShell;
  readonly dialog: Locator;
  readonly conversation: Locator;
  readonly message: Locator;
  readonly fileInput: Locator;
  readonly send: Locator;

  constructor(readonly page: Page) {
    this.shell = new AppShell(page);
    this.dialog = page.getByRole('dialog', { name: /^Chat with/ });
    this.conversation = this.dialog.getByRole('list', { name: 'Conversation' });
    this.message = this.dialog.getByRole('textbox', { name: 'Message' });
    this.fileInput = this.dialog.locator('input[type="file"]');
    this.send = this.dialog.getByRole('button', { name: 'Send' });
  }

  async open() {
    await this.shell.openMenu();
    await this.shell.menuItem('Chat with Support').click();
    await this.dialog.waitFor();
  }

  async close() {
    await this.page.keyboard.press('Escape');
    await this.dialog.waitFor({ state: 'hidden' });
  }

  /** The user-menu button says how many employer messages are unread ("User menu, 2 unread messages"). */
  get menuButton(): Locator {
    return this.shell.userMenuButton;
  }
}
