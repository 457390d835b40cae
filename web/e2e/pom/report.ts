// Page objects of the report viewer (/report): the identity confirmation, then the viewer; and how an
// applicant gets to / with their screening submitted: set up through the API, the data pages filled,
// identity verification done in the sandbox through its own form posts, finalization-complete.
import { expect, type Locator, type Page } from '@playwright/test';
import { portal } from '../fixtures';
import { inviteSetUpThroughApi } from './api-setup';
import { ApplicantApi, prefs, restoreCompanyDefaults, setCompanyPref } from './finalization';

export const reportApplicant = { firstName: 'Casey', lastName: 'Morgan', lastFour: '6789' };
/** The date of birth inviteSetUpThroughApi saves. */
export const reportApplicantDob = { day: '12', month: '4', year: '1990' };
const password = 'correct horse battery staple';

/**
 * A fresh applicant whose screening is submitted (finalization-complete), logged in; their subject id.
 * The demo company asks for no collection site and no payment meanwhile (restored after).
 */
export async function submittedApplicant(page: Page, email: string): Promise<{ subjectId: number }> {
  setCompanyPref(prefs.siteSelection, 'false');
  setCompanyPref(prefs.selfPay, '0');
  try {
    const { subjectId } = await inviteSetUpThroughApi(page, email, reportApplicant, password);
    const api = await ApplicantApi.of(page);
    await api.fillDataPages();
    await api.ok('POST', '/api/v2/user/subject/status', { statusId: 3 });
    const session = await api.ok('PUT', '/api/v2/idv/session', { subjectId });
    const sandbox = `${portal.baseURL}/sandbox/idv/${encodeURIComponent(String(session.id))}`;
    for (const step of ['document', 'selfie', 'approve']) {
      const answer = await page.request.post(`${sandbox}/${step}`, {
        form: { token: String(session.token), sample: '1' },
        maxRedirects: 0,
      });
      expect(answer.status(), `sandbox ${step}`).toBeLessThan(400);
    }
    await expect
      .poll(async () => (await api.ok('GET', `/api/v2/idv/session/${String(session.id)}`)).status, { timeout: 20_000 })
      .not.toBe(0);
    await api.ok('POST', '/api/v2/user/subject/status', { statusId: 2 });
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    return { subjectId };
  } finally {
    restoreCompanyDefaults();
  }
}

/** /report: the confirmation form, or the viewer once the session confirmed. */
export class ReportPage {
  readonly heading: Locator;
  readonly form: Locator;
  readonly ssn: Locator;
  readonly continue: Locator;
  readonly viewer: Locator;
  readonly pages: Locator;
  readonly download: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1 });
    this.form = page.getByRole('form', { name: 'Confirm it is you' });
    this.ssn = this.form.getByRole('textbox', { name: /Last 4 digits of your Social Security number/ });
    this.continue = this.form.getByRole('button', { name: 'Continue to your report' });
    this.viewer = page.getByRole('region', { name: 'Background report' });
    this.pages = page.getByRole('region', { name: 'Pages of the report' });
    this.download = page.getByRole('button', { name: 'Download the PDF' });
  }

  async confirm(dob: { day: string; month: string; year: string }, lastFour: string) {
    const date = this.form.getByRole('group', { name: /Date of birth/ });
    await date.getByRole('textbox', { name: 'Day' }).fill(dob.day);
    await date.getByRole('textbox', { name: 'Month' }).fill(dob.month);
    await date.getByRole('textbox', { name: 'Year' }).fill(dob.year);
    await this.ssn.fill(lastFour);
    await this.continue.click();
  }
}
