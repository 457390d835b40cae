import { describe, expect, it } from 'vitest';
import { paymentRequired, siteSelectionApplies, statusAfterIdv, statusAfterSite } from '@/lib/finalization';
import type { SubjectStatus } from '@/lib/subject-status';
import { userPayload } from '@/testing/fixtures';
import type { UserPayload } from '@/types/api';

/** An applicant for whom the server decided the site selection, the payment and the status after verification. */
function applicant({
  siteSelection = false,
  owed = true,
  afterIdv = 7,
}: { siteSelection?: boolean; owed?: boolean; afterIdv?: number } = {}): UserPayload {
  const user = userPayload(3, { applicantCollectionSiteSelection: siteSelection });
  return { ...user, finalization: { paymentRequired: owed, statusAfterIdv: { statusId: afterIdv, statusText: '' } } };
}

// The server decides (internal/portal Finalization, whose Go tests cover the rules); the app follows.
describe('statusAfterIdv', () => {
  it.each([
    [6, 'MRO-site-selection-started'],
    [7, 'self-pay-required'],
    [2, 'finalization-complete'],
  ] as const)('goes where the server says identity verification leads (status %d): %s', (afterIdv, want) => {
    expect(statusAfterIdv(applicant({ afterIdv }))).toBe(want);
  });
});

describe('siteSelectionApplies', () => {
  it.each([true, false])("is the subject's applicantCollectionSiteSelection (%s)", (siteSelection) => {
    expect(siteSelectionApplies(applicant({ siteSelection }))).toBe(siteSelection);
  });
});

describe('paymentRequired', () => {
  it.each([true, false])("is the server's finalization.paymentRequired (%s)", (owed) => {
    expect(paymentRequired(applicant({ owed }))).toBe(owed);
  });

  it("follows the server even where the package's preferences name a hold", () => {
    expect(paymentRequired(applicant({ owed: false }))).toBe(false);
  });
});

describe('statusAfterSite', () => {
  it.each([
    [true, false, 'self-pay-required'],
    [true, true, 'finalization-complete'],
    [false, false, 'finalization-complete'],
  ] as const)('payment required %s, already paid %s: %s', (owed, paid, want: SubjectStatus) => {
    expect(statusAfterSite(applicant({ owed }), paid)).toBe(want);
  });
});
