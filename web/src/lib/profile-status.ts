// What the applicant is told about their screening (spec section 4): QA stays
// QA, completed or pre-adverse-action shows complete, anything else pending.
// The ids and the rule live once, in the file the Go server embeds too.
import statuses from '@contract/profile-statuses.json';

export type ProfileStatusShown = 'qa' | 'complete' | 'pending';

type StatusName = keyof typeof statuses.ids;

const shownById = new Map<number, ProfileStatusShown>();
for (const shown of ['qa', 'complete'] as const) {
  for (const name of statuses.shown[shown]) shownById.set(statuses.ids[name as StatusName], shown);
}

/** The profile status ids by name (ACTIVE 1, COMPLETED 5, ... QA 36, PRE_ADVERSE_ACTION 65). */
export const profileStatusIds: Readonly<Record<StatusName, number>> = statuses.ids;

/** What the applicant is shown for a profile status id; unknown or missing ids are pending. */
export function profileStatusShown(statusId: number | null | undefined): ProfileStatusShown {
  return (statusId != null && shownById.get(statusId)) || 'pending';
}
