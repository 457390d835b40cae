import { defineConfig } from '@playwright/test';
import base from '../playwright.config';

// Full-page screenshots of the first screens at desktop and phone widths,
// for looking at the design before and after a change (not a test):
//   SHOTS_DIR=/tmp/shots npx playwright test -c screenshots/playwright.config.ts [shots|legal-shots]
export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: ['shots.spec.ts', 'legal-shots.spec.ts'],
  globalSetup: '../e2e/global-setup.ts',
  timeout: 180_000,
});
