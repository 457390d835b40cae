// The signature pad at its largest (the widest column, just below the 900 px
// breakpoint) on screens of more than 3 device pixels per CSS pixel (zoomed
// desktops, some phones): the drawn signature stays within the server's
// limits for a signature image (2400 x 900 pixels, 1.5 million), and
// signing succeeds.
import { expect, inviteApplicant, test } from './fixtures';
import { SetupWizardPage } from './pom/setup-wizard';

test.setTimeout(120_000);

for (const screen of [
  {
    name: 'a zoomed-in desktop just below the breakpoint',
    viewport: { width: 899, height: 1000 },
    deviceScaleFactor: 4,
  },
  { name: 'a large phone in landscape', viewport: { width: 932, height: 430 }, deviceScaleFactor: 3 },
]) {
  test.describe(screen.name, () => {
    test.use({ viewport: screen.viewport, deviceScaleFactor: screen.deviceScaleFactor });

    test('a drawn signature on the largest pad is accepted', async ({ page }) => {
      const email = `pad.${screen.viewport.width}x${screen.deviceScaleFactor}@example.com`;
      await page.goto(inviteApplicant(email, 'Pat', 'Large'));
      const wizard = new SetupWizardPage(page);
      await wizard.welcome();
      await wizard.createPassword('correct horse battery staple');
      await wizard.login('correct horse battery staple');
      await wizard.residency('Texas');

      for (let guard = 0; guard < 10; guard++) {
        const title = (await page.locator('#legal-step-heading').textContent()) ?? '';
        const form = page.getByRole('form', { name: `Sign: ${title}` });
        await expect(form).toBeVisible();
        if (await form.getByLabel('First name').count()) {
          await form.getByLabel('First name').fill('Pat');
          await form.getByLabel('Last name').fill('Large');
        }
        const boxes = form.getByRole('checkbox');
        for (let i = 0; i < (await boxes.count()); i++) await boxes.nth(i).check();
        const pad = form.getByRole('img', { name: /Signature drawing area/ });
        const drawn = (await pad.count()) > 0;
        let size = { width: 0, height: 0 };
        if (drawn) {
          await expect(pad).toHaveAttribute('data-ready', 'true');
          await pad.scrollIntoViewIfNeeded();
          const box = await pad.boundingBox();
          if (!box) throw new Error('no signature canvas');
          // corner to corner, so that nothing is cropped
          await page.mouse.move(box.x + 2, box.y + 2);
          await page.mouse.down();
          for (let i = 1; i <= 20; i++) {
            await page.mouse.move(box.x + 2 + (i * (box.width - 4)) / 20, box.y + (i % 2 ? box.height - 2 : 2), {
              steps: 2,
            });
          }
          await page.mouse.up();
          size = await pad.evaluate((c) => ({
            width: (c as HTMLCanvasElement).width,
            height: (c as HTMLCanvasElement).height,
          }));
          test.info().annotations.push({ type: 'pad', description: `${size.width} x ${size.height} device pixels` });
          expect(size.width).toBeLessThanOrEqual(2400);
          expect(size.height).toBeLessThanOrEqual(900);
          expect(size.width * size.height).toBeLessThanOrEqual(1_500_000);
        }
        await form.getByRole('button', { name: /^(Sign this document|Agree and continue)$/ }).click();
        await expect(page.getByRole('form', { name: `Sign: ${title}` })).toHaveCount(0);
        if (drawn) {
          console.log(`${screen.name}: pad ${size.width} x ${size.height} device pixels, signed "${title}"`);
          return;
        }
      }
      throw new Error('no step with a signature pad');
    });
  });
}
