// The one place where the server's order status ids (spec section 4) become
// the status names the routes are guarded by (spec section 2), and the words an
// applicant reads for each.

export type SubjectStatus =
  | 'new'
  | 'setup-complete'
  | 'finalization-complete'
  | 'idv-started'
  | 'MRO-site-selection-started'
  | 'self-pay-required';

export const subjectStatuses: readonly SubjectStatus[] = [
  'new',
  'setup-complete',
  'finalization-complete',
  'idv-started',
  'MRO-site-selection-started',
  'self-pay-required',
];

/** The order status id the server expects for each status (POST /api/v2/user/subject/status). */
export const statusIds: Record<SubjectStatus, number> = {
  new: 0,
  'setup-complete': 1,
  'finalization-complete': 2,
  'idv-started': 3,
  'MRO-site-selection-started': 6,
  'self-pay-required': 7,
};

const statusById: Record<number, SubjectStatus> = {
  0: 'new',
  1: 'setup-complete',
  2: 'finalization-complete',
  3: 'idv-started',
  // 4 Complete and 5 QA come after finalization: the applicant sees the same pages.
  4: 'finalization-complete',
  5: 'finalization-complete',
  6: 'MRO-site-selection-started',
  7: 'self-pay-required',
};

/** Unknown ids count as `new`: the applicant is sent back through setup rather than shown a page the status may not allow. */
export function statusFromId(statusId: number | null | undefined): SubjectStatus {
  return (statusId != null && statusById[statusId]) || 'new';
}

/** Where a logged-in applicant belongs for each status (the status guard's redirect table). */
export const statusHomePath: Record<SubjectStatus, string> = {
  'idv-started': '/idv',
  'MRO-site-selection-started': '/collection-site',
  'self-pay-required': '/self-pay',
  new: '/setup',
  'setup-complete': '/profile',
  'finalization-complete': '/',
};
