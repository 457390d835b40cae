// The flow of spec section 4 after identity verification, in one place: the
// return from /idv, the collection-site page and the self-pay page all ask it
// where the applicant goes next. The server checks every move the same way
// (internal/portal NextStatus) and answers 409 to one out of order.
import type { CompanySettings, UserPayload } from '@/types/api';
import type { SubjectStatus } from './subject-status';

const MRO_SERVICES = new Set(['drug', 'medi', 'clin']);

/** The company lets applicants pick the collection site, and the package has a medical review service (drug, medi, clin). */
export function siteSelectionApplies(user: UserPayload, settings: CompanySettings | null | undefined): boolean {
  const allowed =
    settings?.preferences.company_applicant_collection_site_selection ?? user.subject.applicantCollectionSiteSelection;
  return allowed === true && user.packageServices.some((service) => MRO_SERVICES.has(service.code));
}

/**
 * Spec section 9: payment is required only when applicant_self_pay_enabled is '1' and the hold
 * amount is above 0. (The server answers '0' for an applicant whose state forbids charging them.)
 */
export function paymentRequired(user: UserPayload): boolean {
  const preferences = user.package?.preferences;
  if (preferences?.applicant_self_pay_enabled !== '1') return false;
  const hold = Number(preferences.applicant_self_pay_initial_hold_amount);
  return Number.isFinite(hold) && hold > 0;
}

/** Where the applicant goes once identity verification is finished (neither active nor expired). */
export function statusAfterIdv(user: UserPayload, settings: CompanySettings | null | undefined): SubjectStatus {
  if (siteSelectionApplies(user, settings)) return 'MRO-site-selection-started';
  return statusAfterSite(user, false);
}

/** Where the applicant goes once a collection site is chosen: self-pay when a payment is still owed. */
export function statusAfterSite(user: UserPayload, alreadyPaid: boolean): SubjectStatus {
  return paymentRequired(user) && !alreadyPaid ? 'self-pay-required' : 'finalization-complete';
}
