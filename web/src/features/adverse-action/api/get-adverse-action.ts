// The applicant's adverse-action notice: GET /api/v2/user/adverse-action (docs/api.md, "Adverse
// action"), null while none was sent. The server counts the business days left by its own clock.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useLiveScreening } from '@/lib/screening-events';

export type AdverseAction = {
  state: 'pre' | 'final';
  companyName: string;
  sentAt: string;
  waitingDays: number;
  /** The waiting period's last business day, "2026-12-03". */
  endsOn: string;
  businessDaysLeft: number;
  note: string;
  basedOn: string[];
  finalAt: string | null;
  finalNote: string;
  /** Sanitized HTML from the server. */
  summaryOfRights: string;
};

export const adverseActionQuery = () =>
  queryOptions({
    queryKey: ['adverse-action'],
    queryFn: () => api.get<AdverseAction | null>('api/v2/user/adverse-action'),
  });

/** The notice, read again when the event stream says it changed (an operator sent one). */
export function useAdverseAction() {
  useLiveScreening(['adverse-action'], [adverseActionQuery().queryKey]);
  return useQuery(adverseActionQuery());
}
