import type { Locator, Page } from '@playwright/test';
import { AppShell } from './app-shell';

/** The chat with the employer's hiring team: the sheet the top bar's Messages (or the user menu's entry) opens. */
export class ChatPanel {
  readonly shell: AppShell;
  /** "Messages from the <Company> hiring team[, N unread]", on every logged-in page when chat is on. */
  readonly messagesButton: Locator;
  /** The user menu's entry, "Message <Company> hiring team". */
  readonly menuEntry: Locator;
  /** The toast that tells of a reply while the chat is closed. */
  readonly newReplyToast: Locator;
  readonly dialog: Locator;
  readonly conversation: Locator;
  readonly message: Locator;
  readonly fileInput: Locator;
  readonly send: Locator;

  constructor(readonly page: Page) {
    this.shell = new AppShell(page);
    this.messagesButton = page.getByRole('button', { name: /^Messages from the .* hiring team/ });
    this.menuEntry = page.getByRole('menuitem', { name: /^Message .* hiring team/ });
    this.newReplyToast = this.shell.snackbar.getByText(/^New message from .* hiring team$/);
    this.dialog = page.getByRole('dialog', { name: /^Message .* hiring team$/ });
    this.conversation = this.dialog.getByRole('list', { name: 'Conversation' });
    this.message = this.dialog.getByRole('textbox', { name: 'Message' });
    this.fileInput = this.dialog.locator('input[type="file"]');
    this.send = this.dialog.getByRole('button', { name: 'Send' });
  }

  async open() {
    await this.messagesButton.click();
    await this.dialog.waitFor();
  }

  async openFromMenu() {
    await this.shell.openMenu();
    await this.menuEntry.click();
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
