import type { Locator, Page } from '@playwright/test';

/** The frame around logged-in pages: top bar, user menu, snackbar. */
export class AppShell {
  readonly topBar: Locator;
  readonly userMenuButton: Locator;
  readonly menu: Locator;
  readonly snackbar: Locator;

  constructor(readonly page: Page) {
    this.topBar = page.getByRole('banner');
    this.userMenuButton = page.getByRole('button', { name: 'User menu' });
    this.menu = page.getByRole('menu');
    this.snackbar = page.getByRole('region', { name: /Notifications/ });
  }

  menuItem(name: string) {
    return this.page.getByRole('menuitem', { name });
  }

  async openMenu() {
    await this.userMenuButton.click();
    await this.menu.waitFor();
  }

  async logOut() {
    await this.openMenu();
    await this.menuItem('Logout').click();
  }
}
