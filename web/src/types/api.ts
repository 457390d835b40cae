// Shapes of the server's answers (spec sections 3 and 7) that the app shell uses.

export type SubjectStatusPayload = {
  statusId: number;
  statusText: string;
};

export type PersonalInformation = {
  firstName?: string | null;
  middleName?: string | null;
  lastName?: string | null;
  /** The API never answers a saved SSN, only its last four digits. */
  ssnLastFour?: string | null;
  [key: string]: unknown;
};

export type Subject = {
  id: number;
  username: string;
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  phone?: string | null;
  token?: string | null;
  status: SubjectStatusPayload;
  fullProfile: boolean;
  applicantCollectionSiteSelection: boolean;
  hasPassword?: boolean;
  companyId?: number;
  personalInformation: PersonalInformation | null;
  /** The address of an e-mail change waiting for its confirmation link. */
  pendingEmail?: string | null;
};

export type Company = {
  id: number;
  name: string;
  packageId: number | null;
};

export type Order = {
  id: number;
  statusId: number;
  statusText?: string;
};

export type AccountingCode = {
  type: string;
  code: string;
};

export type Profile = {
  id: number;
  number: string;
  statusId: number;
  orders: Order[];
  accountingCodes: AccountingCode[];
  documentTypes?: unknown[];
};

export type CompanyPackage = {
  id: number;
  name: string;
  preferences: {
    applicant_self_pay_enabled?: string;
    applicant_self_pay_initial_hold_amount?: string;
    [key: string]: unknown;
  };
};

export type PackageService = {
  id: number;
  code: string;
  name: string;
  alias: string;
};

/**
 * What the server decided of the steps after identity verification (docs/api.md), so the app
 * follows it instead of deciding again. Whether the applicant chooses the collection site is
 * `subject.applicantCollectionSiteSelection`.
 */
export type Finalization = {
  /** Spec section 9's rule after the residency exemption. */
  paymentRequired: boolean;
  /** The status identity verification leads to, as the server will accept it. */
  statusAfterIdv: SubjectStatusPayload;
};

/** GET /api/v2/user */
export type UserPayload = {
  subject: Subject;
  company: Company;
  profile: Profile;
  ipAddress: string;
  package: CompanyPackage | null;
  packageServices: PackageService[];
  finalization: Finalization;
};

/** GET /api/user?token=T: the user payload plus a setup-scoped credential. */
export type TokenLoginPayload = UserPayload & {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
};

/** POST /oauth/access_token */
export type TokenResponse = {
  access_token: string;
  refresh_token?: string;
  expires_in: number;
  token_type: string;
  scope?: string;
};

export type CompanyPreferences = {
  company_subject_chat: boolean;
  company_subject_password_length: number;
  company_require_ssn: boolean;
  company_applicant_collection_site_selection: boolean;
};

/** GET /api/settings/company/{id} */
export type CompanySettings = {
  id: number;
  companyLogoUrlAddress: string | null;
  preferences: CompanyPreferences;
};

export type Banner = {
  id: number;
  message: string;
};

export type ErrorField = {
  field: string;
  /** In the request's language. */
  message: string;
  /** The message's stable code (docs/api.md), such as 'ssn-mismatch', which the app reacts to. */
  code?: string;
};

/** Every error answer of the server. */
export type ErrorBody = {
  /** In the request's language; 'validation error' stays English. */
  errorMessage?: string;
  /** The message's stable code (docs/api.md), such as 'auth.credentials_incorrect'. */
  errorCode?: string;
  errorFields?: ErrorField[];
  error?: string;
  message?: string;
};

/** Answers that carry only a message (password reset). */
export type MessageResponse = {
  message: string;
};
