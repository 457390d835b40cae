// The flow of spec section 4 after identity verification, as the server decided it: the return
// from /idv, the collection-site page and the home page read the decisions from GET /api/v2/user
// (internal/portal Finalization) and never make them again. The server also checks every move
// (NextStatus) and answers 409 to one out of order.
import type { UserPayload } from '@/types/api';
import { statusFromId, type SubjectStatus } from './subject-status';

/** The applicant chooses the collection site (the company lets them and the package has a medical review service). */
export function siteSelectionApplies(user: UserPayload): boolean {
  return user.subject.applicantCollectionSiteSelection;
}

/** A self-pay hold is owed (spec section 9's rule after the residency exemption). */
export function paymentRequired(user: UserPayload): boolean {
  return user.finalization.paymentRequired;
}

/** Where the applicant goes once identity verification is finished (neither active nor expired). */
export function statusAfterIdv(user: UserPayload): SubjectStatus {
  return statusFromId(user.finalization.statusAfterIdv.statusId);
}

/** Where the applicant goes once a collection site is chosen: self-pay when a payment is still owed. */
export function statusAfterSite(user: UserPayload, alreadyPaid: boolean): SubjectStatus {
  return paymentRequired(user) && !alreadyPaid ? 'self-pay-required' : 'finalization-complete';
}
