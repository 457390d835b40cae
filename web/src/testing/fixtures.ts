// Server answers as the API gives them (docs/api.md), for the tests' mock server.
import type { Preparation } from '@/features/setup/api/preparation';
import type { DocumentContent } from '@/features/legal/api/get-document-content';
import type { LegalDocument, Location } from '@/features/legal/lib/legal-steps';
import type { PaymentAuthorization } from '@/lib/payment';
import type { ChecklistPage, SubjectData } from '@/lib/subject';
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
    profile: {
      id: 11,
      number: 'P-0011',
      statusId: 19,
      orders: [{ id: 21, statusId, statusText: statusTexts[statusId] }],
      accountingCodes: [],
    },
    ipAddress: '127.0.0.1',
    package: {
      id: 3,
      name: 'Standard',
      preferences: { applicant_self_pay_enabled: '1', applicant_self_pay_initial_hold_amount: '25.00' },
    },
    packageServices: [{ id: 1, code: 'crim', name: 'Criminal', alias: 'crim' }],
    // The server's decisions for this package: no site to choose, the hold owed.
    finalization: { paymentRequired: true, statusAfterIdv: { statusId: 7, statusText: statusTexts[7] } },
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
  return {
    access_token: accessToken,
    refresh_token: refreshToken,
    expires_in: 3600,
    token_type: 'Bearer',
    scope: 'default',
  };
}

type LegalFixture = { id: number; documentType: string; title: string; signed?: boolean };

/** GET /api/v2/user/document: the demo employer's documents, none signed unless asked. */
export function legalDocuments(items: LegalFixture[] = defaultLegalDocuments): LegalDocument[] {
  return items.map(({ id, documentType, title, signed }) => ({
    id,
    title,
    version: 1,
    type: { id, documentType, visibility: 'all', regions: null, code: documentType, editable: true },
    signature: signed
      ? {
          id: id * 10,
          signatureData: 'data:image/png;base64,iVBORw0KGgo=',
          signatureUserIp: '127.0.0.1',
          signerName: 'Dana Demo',
          createdAt: '2026-11-20T15:04:05Z',
          documentVersion: 1,
          contentSha256: `sha-${id}`,
          outcome: 'signed',
          fields: {},
        }
      : null,
  }));
}

const defaultLegalDocuments: LegalFixture[] = [
  { id: 1, documentType: 'e_sign', title: 'Consent to electronic signatures' },
  { id: 2, documentType: 'disclosure', title: 'Background check disclosure' },
  { id: 3, documentType: 'california_disclosure', title: 'California disclosure' },
  { id: 4, documentType: 'authorization_for_background', title: 'Authorization for background check' },
];

/** GET /api/v2/document/{id}: sanitized HTML with the tokens replaced. */
export function documentContent(id: number, title = `Document ${id}`): DocumentContent {
  return {
    id,
    title,
    version: 1,
    documentType: 'disclosure',
    content: `<h1>${title}</h1><p>Sample text of document ${id}.</p>`,
    contentSha256: `sha-${id}`,
  };
}

/** GET /api/v2/user/data: where the applicant lives and will work. */
export function subjectData(location: Partial<Location> = {}) {
  const place = { nonUs: false, state: '', county: 0 };
  return { payload: { data: { location: { residency: { ...place }, employment: { ...place }, ...location } } } };
}

/** GET /api/v2/lookup/{key}: a few rows of each table the server ships. */
export const lookups: Record<string, unknown[]> = {
  genders: [
    { id: 1, name: 'Female', code: 'F' },
    { id: 2, name: 'Male', code: 'M' },
  ],
  suffixes: [
    { id: 1, name: 'Jr.', code: 'JR' },
    { id: 2, name: 'Sr.', code: 'SR' },
  ],
  countries: [
    { countryId: 1, countryName: 'United States', countryCode: 'US' },
    { countryId: 40, countryName: 'Canada', countryCode: 'CA' },
  ],
  statesByCountryId: [
    { id: 6, name: 'California', code: 'US-CA', countryId: 1 },
    { id: 48, name: 'Texas', code: 'US-TX', countryId: 1 },
  ],
  counties: [
    { id: 6037, name: 'Los Angeles County', stateId: 6, stateCode: 'US-CA' },
    { id: 6075, name: 'San Francisco County', stateId: 6, stateCode: 'US-CA' },
    { id: 48453, name: 'Travis County', stateId: 48, stateCode: 'US-TX' },
  ],
};

type PageFixture = Partial<ChecklistPage> & Pick<ChecklistPage, 'id'>;

const pageDefaults: Record<string, { path: string; title: string }> = {
  personal: { path: '/personal', title: 'Personal Information' },
  aliases: { path: '/aliases', title: 'Other Names' },
  addresses: { path: '/addresses', title: 'Address History' },
  education: { path: '/education', title: 'Education' },
  employment: { path: '/employment', title: 'Employment' },
  credential: { path: '/credential', title: 'Licenses and Credentials' },
  professional: { path: '/professional', title: 'Professional References' },
};

/** GET /api/v2/user/subject's payload: by default personal done, the rest of the checklist still to do. */
export function subjectRead(overrides: Partial<SubjectData> & { pageList?: PageFixture[] } = {}): SubjectData {
  const { pageList, ...rest } = overrides;
  const list: PageFixture[] = pageList ?? [
    { id: 'personal', complete: true },
    { id: 'aliases', complete: false, missing: ['Say whether you have used other names.'] },
    { id: 'addresses', complete: false, missing: ['Add your addresses for the last 7 years.'] },
    { id: 'employment', complete: false, missing: ['Add your employers.'] },
  ];
  const pages = list.map((p) => ({
    path: pageDefaults[p.id]?.path ?? `/${p.id}`,
    title: pageDefaults[p.id]?.title ?? p.id,
    required: true,
    complete: false,
    missing: [],
    ...p,
  }));
  return {
    location: null,
    noDataAvailable: { education: false, employment: false, credential: false, professional: false },
    insufficientDataBypass: false,
    bypassNotes: '',
    services: {},
    serviceStatuses: {},
    aliases: [],
    addresses: [],
    pages,
    dotReleases: [],
    readyToSubmit: pages.every((p) => p.complete || !p.required),
    ...rest,
  };
}

/** A $25.00 hold the sandbox processor authorized on the Visa test card. */
export const paymentAuthorization: PaymentAuthorization = {
  id: 'auth_123',
  amount: '25.00',
  currency: 'USD',
  last4: '4242',
  brand: 'Visa',
  authorizedAt: '2026-11-20T15:04:05Z',
};

/** GET /api/v2/user/preparation: a package with employment, a document and a self-pay hold. */
export function preparation(later: string[] = []): Preparation {
  const items: Preparation['items'] = [
    { id: 'ssnAndBirthDate', later: false },
    { id: 'otherNames', later: false },
    { id: 'addresses', later: false, years: 7 },
    { id: 'employers', later: false, phones: true },
    { id: 'documents', later: false, count: 1, names: ["Driver's license"] },
    { id: 'photoIdAndSelfie', later: false },
    { id: 'paymentCard', later: false, amount: '25.00', currency: 'USD' },
  ];
  return {
    items: items.map((it) => ({ ...it, later: later.includes(it.id) })),
    estimate: {
      minutes: { low: 35, high: 45 },
      parts: [
        { id: 'account', minutes: { low: 2, high: 3 } },
        { id: 'addresses', minutes: { low: 5, high: 8 } },
      ],
    },
  };
}
