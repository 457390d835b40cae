// The legal journey of issue 4 through the real binary: every applicable
// document signed in order (drawn and typed signatures), then a print page
// and the signed PDF an auditor keeps.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, inviteApplicant, test } from './fixtures';
import { SetupWizardPage } from './pom/setup-wizard';

test.setTimeout(180_000);

/** A document is read in the page's one scroll: nothing on the page scrolls inside a box of its own, nor sideways. */
async function expectOneScroll(page: Page, context: string) {
  const boxes = await page.evaluate(() =>
    [...document.querySelectorAll('main *')]
      .filter((el) => {
        const { overflowY } = getComputedStyle(el);
        return (overflowY === 'auto' || overflowY === 'scroll') && el.scrollHeight > el.clientHeight + 1;
      })
      .map(
        (el) => el.tagName.toLowerCase() + (el.getAttribute('aria-label') ? `[${el.getAttribute('aria-label')}]` : ''),
      ),
  );
  expect(boxes, `scroll boxes on ${context}`).toEqual([]);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    `sideways scroll on ${context}`,
  ).toBeLessThanOrEqual(0);
}

test('an applicant working in San Francisco signs every applicable document in order, prints one and downloads the signed PDF', async ({
  page,
}) => {
  const link = inviteApplicant(
    'legal.journey@example.com',
    'Łucja',
    'Ørsted',
    '--work-state',
    'US-CA',
    '--work-county',
    '6075',
  );
  await page.goto(link);
  const wizard = new SetupWizardPage(page);
  await wizard.welcome();
  await wizard.createPassword('correct horse battery staple');
  await wizard.login('correct horse battery staple');
  // Each legal step, and the residency question, at a desktop's width and a phone's.
  const lookAtBothSizes = async (context: string) => {
    await expectAccessible(page, `${context} at 1280 px`);
    await page.setViewportSize({ width: 360, height: 740 });
    await expectAccessible(page, `${context} at 360 px`);
    await expectOneScroll(page, context);
    await page.setViewportSize({ width: 1280, height: 720 });
    await expectOneScroll(page, context);
  };
  await expect(page.getByRole('heading', { name: 'Where do you live?' })).toBeVisible();
  await lookAtBothSizes('legal: residency');
  await wizard.residency('Texas');

  const signed = await wizard.signAllLegalSteps('Łucja', 'Ørsted', '6789', async (title) => {
    // The documents' own headings sit below the step's (h3): h4 and lower.
    await expect(page.getByRole('article').first().getByRole('heading').first()).toBeVisible();
    expect(await page.getByRole('article').locator('h1, h2, h3').count()).toBe(0);
    await lookAtBothSizes(`legal: ${title}`);
  });
  // Spec section 9: e-sign, disclosure, investigative, California, rights, others, authorization last.
  expect(signed).toEqual([
    'Consent to Electronic Records and Signatures',
    'Disclosure Regarding Background Investigation',
    'Disclosure of Investigative Consumer Report',
    'Disclosure for California Applicants',
    'Your rights',
    'Release of Previous Employer Safety Performance Information (DOT)',
    'Authorization for Background Check',
  ]);
  await wizard.personalInformation({
    ssn: '123-45-6789',
    dob: '1990-04-12',
    phone: '202 456 1111',
    license: 'D7654321',
    state: 'California',
  });
  await expect(page).toHaveURL(/\/profile$/);

  // The print page uses the kebab-case type and shows the signature block.
  await page.goto('/print/californiaDisclosure');
  await expect(page).toHaveURL(/\/print\/california-disclosure$/);
  const printed = page.getByRole('article', { name: 'Disclosure for California Applicants' });
  await expect(printed.getByRole('heading', { name: 'Disclosure for California Applicants' })).toBeVisible();
  const signature = printed.getByRole('region', { name: 'Signature' });
  await expect(signature.getByText('Łucja Ørsted')).toBeVisible();
  await expect(signature.getByRole('img', { name: 'Signature of Łucja Ørsted' })).toBeVisible();
  await expect(signature.getByText('127.0.0.1')).toBeVisible();
  await expectAccessible(page, 'print: california disclosure');
  // Notices of other places are not printed for this applicant.
  await page.goto('/print/rights');
  await expect(page.getByRole('article')).toHaveCount(3);
  await expect(page.getByRole('article', { name: /New Jersey/ })).toHaveCount(0);
  // Several signature blocks on one page: each landmark has a name of its own.
  await expect(page.getByRole('region', { name: /^Signature/ })).toHaveCount(3);
  await expectAccessible(page, 'print: rights notices', { moderate: true });

  await page.goto('/print/authorization');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: /^Download signed copy \(PDF\)/ }).click();
  const pdf = await download;
  expect(pdf.suggestedFilename()).toBe('authorization-signed.pdf');
  const bytes = readFileSync(await pdf.path());
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  // The Go tests read the PDF back; here it must be a whole PDF file.
  expect(bytes.length).toBeGreaterThan(5_000);
  expect(bytes.subarray(-6).toString()).toContain('%%EOF');
});

test('an applicant living in San Francisco and working in New York is given the San Francisco notice', async ({
  page,
}) => {
  const link = inviteApplicant('legal.county@example.com', 'Sam', 'Rivera', '--work-state', 'US-NY');
  await page.goto(link);
  const wizard = new SetupWizardPage(page);
  await wizard.welcome();
  await wizard.createPassword('correct horse battery staple');
  await wizard.login('correct horse battery staple');
  // California has a county notice among the employer's documents: the county is asked, and only there.
  await expect(page.getByRole('heading', { name: 'Where do you live?' })).toBeVisible();
  await page.getByLabel('State', { exact: true }).selectOption({ label: 'Texas' });
  await expect(page.getByLabel('County', { exact: true })).toHaveCount(0);
  await page.getByLabel('State', { exact: true }).selectOption({ label: 'California' });
  await expect(page.getByLabel('County', { exact: true })).toBeVisible();
  await expectAccessible(page, 'legal: residency with its county');
  await wizard.residency('California', 'San Francisco County');

  let rights: string[] = [];
  await wizard.signAllLegalSteps('Sam', 'Rivera', '6789', async (title) => {
    if (title === 'Your rights')
      rights = await page.getByRole('article').evaluateAll((a) => a.map((e) => e.getAttribute('aria-label') ?? ''));
  });
  expect(rights).toEqual([
    'A Summary of Your Rights Under the Fair Credit Reporting Act',
    'San Francisco Fair Chance Ordinance Notice',
    expect.stringMatching(/Article 23-A/),
    expect.stringMatching(/California/),
  ]);
});
