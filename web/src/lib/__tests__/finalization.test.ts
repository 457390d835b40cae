import { describe, expect, it } from 'vitest';
import { paymentRequired, siteSelectionApplies, statusAfterIdv, statusAfterSite } from '@/lib/finalization';
import type { SubjectStatus } from '@/lib/subject-status';
import { companySettings, userPayload } from '@/testing/fixtures';
import type { PackageService, UserPayload } from '@/types/api';

const crim: PackageService = { id: 1, code: 'crim', name: 'Criminal', alias: 'crim' };
const service = (code: string): PackageService => ({ id: 2, code, name: code, alias: code });

function applicant({
  services = [crim],
  selfPay = '1',
  hold = '25.00',
}: { services?: PackageService[]; selfPay?: string; hold?: string } = {}): UserPayload {
  const user = userPayload(3);
  return {
    ...user,
    package: {
      id: 3,
      name: 'Standard',
      preferences: { applicant_self_pay_enabled: selfPay, applicant_self_pay_initial_hold_amount: hold },
    },
    packageServices: services,
  };
}

describe('statusAfterIdv', () => {
  // Spec section 4: the site first when it applies, else self-pay when owed, else finished.
  const table: [siteSelection: boolean, mro: boolean, selfPay: string, hold: string, want: SubjectStatus][] = [
    [true, true, '1', '25.00', 'MRO-site-selection-started'],
    [true, true, '1', '0', 'MRO-site-selection-started'],
    [true, true, '0', '25.00', 'MRO-site-selection-started'],
    [true, true, '0', '0', 'MRO-site-selection-started'],
    [true, false, '1', '25.00', 'self-pay-required'],
    [true, false, '1', '0', 'finalization-complete'],
    [true, false, '0', '25.00', 'finalization-complete'],
    [true, false, '0', '0', 'finalization-complete'],
    [false, true, '1', '25.00', 'self-pay-required'],
    [false, true, '1', '0', 'finalization-complete'],
    [false, true, '0', '25.00', 'finalization-complete'],
    [false, true, '0', '0', 'finalization-complete'],
    [false, false, '1', '25.00', 'self-pay-required'],
    [false, false, '1', '0', 'finalization-complete'],
    [false, false, '0', '25.00', 'finalization-complete'],
    [false, false, '0', '0', 'finalization-complete'],
  ];

  it.each(table)('site selection %s, MRO service %s, self-pay %s, hold %s: %s', (site, mro, selfPay, hold, want) => {
    const user = applicant({ services: mro ? [crim, service('drug')] : [crim], selfPay, hold });
    const settings = companySettings({ company_applicant_collection_site_selection: site });
    expect(statusAfterIdv(user, settings)).toBe(want);
  });

  it.each(['drug', 'medi', 'clin'])('counts %s as a medical review service', (code) => {
    const user = applicant({ services: [service(code)] });
    expect(siteSelectionApplies(user, companySettings({ company_applicant_collection_site_selection: true }))).toBe(
      true,
    );
  });

  it("without the company's settings, falls back to the subject's own collection-site flag", () => {
    const user = applicant({ services: [service('drug')] });
    expect(statusAfterIdv(user, null)).toBe('self-pay-required');
    const allowed = { ...user, subject: { ...user.subject, applicantCollectionSiteSelection: true } };
    expect(statusAfterIdv(allowed, null)).toBe('MRO-site-selection-started');
  });

  it("sends on to finalization an applicant the server exempts from self-pay ('0' for a forbidden state)", () => {
    expect(statusAfterIdv(applicant({ selfPay: '0', hold: '25.00' }), companySettings())).toBe('finalization-complete');
  });
});

describe('paymentRequired', () => {
  it.each([
    ['1', '25.00', true],
    ['1', '0.01', true],
    ['1', '0', false],
    ['1', '0.00', false],
    ['1', '', false],
    ['1', 'abc', false],
    ['0', '25.00', false],
    ['', '25.00', false],
  ])('self-pay %j with hold %j: %s', (selfPay, hold, want) => {
    expect(paymentRequired(applicant({ selfPay, hold }))).toBe(want);
  });

  it('is not required without a package', () => {
    expect(paymentRequired({ ...applicant(), package: null })).toBe(false);
  });
});

describe('statusAfterSite', () => {
  it.each([
    ['1', '25.00', false, 'self-pay-required'],
    ['1', '25.00', true, 'finalization-complete'],
    ['1', '0', false, 'finalization-complete'],
    ['0', '25.00', false, 'finalization-complete'],
  ] as const)('self-pay %s, hold %s, already paid %s: %s', (selfPay, hold, paid, want) => {
    expect(statusAfterSite(applicant({ selfPay, hold }), paid)).toBe(want);
  });
});
