// Issue 26: every route an applicant can reach holds at 200% text size and at 320 px (WCAG 2.2 SC
// 1.4.4 and 1.4.10): no sideways scroll, no select or button whose text is cut, and axe on each. One
// test per pass, each with an applicant of its own, so the two passes run side by side on the two
// workers; the states from setup to the end are built through the API (as pom/report.ts's
// submittedApplicant), and each state's pages are visited in a loop: one load per route and pass
// for both checks.
import type { Page } from '@playwright/test';
import { expect, expectAccessible, inviteApplicant, portal, portalCli, test } from './fixtures';
import { inviteSetUpThroughApi } from './pom/api-setup';
import { ApplicantApi, futureExpiry, restoreCompanyDefaults } from './pom/finalization';

const password = 'correct horse battery staple';
const applicant = { firstName: 'Rey', lastName: 'Flow', lastFour: '6789' };

type Pass = { name: string; width: number; textSize: string };

const passes: Pass[] = [
  // The browser's text size at 200% (the root font size, as the browser setting sets it) on a phone.
  { name: '200% text at 360 px', width: 360, textSize: '200%' },
  { name: '320 px', width: 320, textSize: '100%' },
];

// The passes are independent (an applicant each): they run side by side on the two workers.
test.describe.configure({ mode: 'parallel' });
test.use({ actionTimeout: 15_000 });
test.afterEach(() => restoreCompanyDefaults());

/** The pass's text size on every document the page loads. */
async function applyTextSize(page: Page, pass: Pass) {
  await page.addInitScript((size) => {
    document.addEventListener('DOMContentLoaded', () => {
      const style = document.createElement('style');
      style.textContent = `html { font-size: ${size} !important; }`;
      document.head.append(style);
    });
  }, pass.textSize);
}

/** What does not hold on the page as it is now: sideways scroll, and selects and buttons whose text is cut. */
function layoutProblems() {
  const problems: string[] = [];
  const describe = (el: Element) =>
    `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ')[0]}` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
  const root = document.documentElement;
  if (root.scrollWidth > window.innerWidth) {
    const wide = [...document.body.querySelectorAll('*')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && el.checkVisibility())
      .slice(-3)
      .map(describe);
    problems.push(`scrolls sideways (${root.scrollWidth} > ${window.innerWidth}): ${wide.join(', ')}`);
  }
  const measure = document.createElement('span');
  measure.style.cssText = 'position:absolute;visibility:hidden;white-space:pre';
  document.body.append(measure);
  for (const select of document.querySelectorAll('select')) {
    if (!select.checkVisibility()) continue;
    const style = getComputedStyle(select);
    measure.style.font = style.font;
    measure.textContent = select.selectedOptions[0]?.text ?? '';
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    if (measure.getBoundingClientRect().width > room + 1) problems.push(`select cuts its text: ${describe(select)}`);
  }
  measure.remove();
  for (const button of document.querySelectorAll('button')) {
    if (button.checkVisibility() && button.scrollWidth > button.clientWidth + 1) {
      problems.push(`button cuts its text: ${describe(button)}`);
    }
  }
  return problems;
}

/** The status the app would post; a page visited may have moved the applicant there already. */
async function moveTo(api: ApplicantApi, statusId: number) {
  const user = (await api.ok('GET', '/api/v2/user')) as { subject: { status?: { statusId?: number } } };
  if (user.subject.status?.statusId !== statusId) await api.ok('POST', '/api/v2/user/subject/status', { statusId });
}

async function checkPages(page: Page, pass: Pass, paths: string[]) {
  for (const path of paths) {
    const context = `${path} (${pass.name})`;
    await page.goto(path);
    await expect(page.locator('h1').first(), context).toBeVisible();
    // Pages fill in after their data: wait until nothing is still loading.
    await expect(page.locator('[aria-busy="true"]'), context).toHaveCount(0);
    expect.soft(await page.evaluate(layoutProblems), context).toEqual([]);
    await expectAccessible(page, context);
  }
}

for (const pass of passes) {
  test.describe(pass.name, () => {
    test.use({ viewport: { width: pass.width, height: 720 } });

    test(`every applicant route holds at ${pass.name}`, async ({ page }) => {
      test.setTimeout(300_000);
      await applyTextSize(page, pass);

      // Before login.
      const invitation = new URL(
        inviteApplicant(`reflow.invite.${pass.width}.${Date.now()}@example.com`, 'Rey', 'Flow'),
      );
      await checkPages(page, pass, [
        '/login',
        '/reset',
        '/privacy',
        '/new-link',
        '/continue',
        '/register',
        '/confirm-email',
        '/reminders/stop',
        invitation.pathname + invitation.search,
      ]);

      // After setup: the data pages, the review, the account, a print page.
      const email = `reflow.${pass.width}.${Date.now()}@example.com`;
      const { subjectId } = await inviteSetUpThroughApi(page, email, applicant, password, { drugZip: '78701' });
      await checkPages(page, pass, [
        '/profile',
        '/personal',
        '/personal-data',
        '/addresses',
        '/aliases',
        '/education',
        '/employment',
        '/credential',
        '/professional',
        '/additional-documents',
        '/fillable-pdf-form',
        '/account',
        '/print/disclosure',
      ]);
      const api = await ApplicantApi.of(page);
      await api.fillDataPages();
      await checkPages(page, pass, ['/confirmation']);

      // Identity verification, approved through the sandbox's own forms.
      await api.ok('POST', '/api/v2/user/subject/status', { statusId: 3 });
      const session = await api.ok('PUT', '/api/v2/idv/session', { subjectId });
      await checkPages(page, pass, ['/idv']);
      const sandbox = `${portal.baseURL}/sandbox/idv/${encodeURIComponent(String(session.id))}`;
      for (const step of ['document', 'selfie', 'approve']) {
        const answer = await page.request.post(`${sandbox}/${step}`, {
          form: { token: String(session.token), sample: '1' },
          maxRedirects: 0,
        });
        expect(answer.status(), `sandbox ${step}`).toBeLessThan(400);
      }
      await expect
        .poll(async () => (await api.ok('GET', `/api/v2/idv/session/${String(session.id)}`)).decision, {
          timeout: 20_000,
        })
        .toBe('approved');
      await checkPages(page, pass, [`/idv/success?session=${encodeURIComponent(String(session.id))}`]);

      // The collection site, self-pay, then the end: home, the site change, the report, disputes.
      await moveTo(api, 6);
      await checkPages(page, pass, ['/collection-site']);
      const found = (await api.ok('GET', '/api/v2/collection-sites?zip=78701')) as { sites: { id: number }[] };
      await api.ok('PUT', '/api/v2/user/collection-site', { siteId: found.sites[0].id });
      await moveTo(api, 7);
      await checkPages(page, pass, ['/self-pay']);
      await api.ok('POST', '/api/v2/payment/auth', {
        cardNumber: '4242 4242 4242 4242',
        expiry: futureExpiry(),
        cvc: '123',
        cardholderName: 'Rey Flow',
        postalCode: '78701',
        idempotencyKey: crypto.randomUUID(),
      });
      await moveTo(api, 2);
      await checkPages(page, pass, ['/', '/collection-site-update', '/report', '/disputes', '/disputes/new']);
      portalCli('adverse pre', '--subject', String(subjectId), '--note', 'The county record of 2019.');
      await checkPages(page, pass, ['/adverse-action']);
    });
  });
}
