// A company's preferences when its settings are missing or leave one out
// (spec section 9, first reading): the settings' query (./current-user) fills
// the gaps with them, and /login's password reset, which knows no company, uses them.
import type { CompanySettings } from '@/types/api';

export const defaultCompanyPreferences: CompanySettings['preferences'] = {
  company_subject_chat: false,
  company_subject_password_length: 15,
  company_require_ssn: false,
  company_applicant_collection_site_selection: false,
};
