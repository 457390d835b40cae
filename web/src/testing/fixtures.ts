// Server answers as the API gives them (docs/api.md), for the tests' mock server.
import type { CompanySettings, TokenResponse, UserPayload } from '@/types/api';

const statusTexts: Record<number, string> = {
  0: 'New',
  1: 'Setup Complete',
  2: 'Finalization Complete',
  3: 'IDV session started',
  4: 'Complete',
  5: 'QA',
  6: 'MRO site selection session started',
  7: 'Self-pay required',
};

export function userPayload(statusId = 2, subject: Partial<UserPayload['subject']> = {}): UserPayload {
  return {
    subject: {
      id: 7,
      username: 'demo.applicant@example.com',
      email: 'demo.applicant@example.com',
      firstName: 'Dana',
      lastName: 'Demo',
      first_name: 'Dana',
      last_name: 'Demo',
      phone: '',
      status: { statusId, statusText: statusTexts[statusId] ?? 'Unknown' },
      fullProfile: false,
      applicantCollectionSiteSelection: false,
      hasPassword: true,
      companyId: 1,
      personalInformation: null,
      ...subject,
    },
    company: { id: 1, name: 'Acme Logistics', packageId: 3 },
    profile: { id: 11, number: 'P-0011', statusId: 19, orders: [{ id: 21, statusId, statusText: statusTexts[statusId] }], accountingCodes: [] },
    ipAddress: '127.0.0.1',
    package: {
      id: 3,
      name: 'Standard',
      preferences: { applicant_self_pay_enabled: '1', applicant_self_pay_initial_hold_amount: '25.00' },
    },
    packageServices: [{ id: 1, code: 'crim', name: 'Criminal', alias: 'crim' }],
  };
}

export function companySettings(preferences: Partial<CompanySettings['preferences']> = {}): CompanySettings {
  return {
    id: 1,
    companyLogoUrlAddress: null,
    preferences: {
      company_subject_chat: true,
      company_subject_password_length: 15,
      company_require_ssn: false,
      company_applicant_collection_site_selection: false,
      ...preferences,
    },
  };
}

export function tokenResponse(accessToken = 'access-1', refreshToken = 'refresh-1'): TokenResponse {
  return { access_token: accessToken, refresh_token: refreshToken, expires_in: 3600, token_type: 'Bearer', scope: 'default' };
}
