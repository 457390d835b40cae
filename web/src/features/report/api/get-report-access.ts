// GET /api/v2/user/profile/report/access: whether this session may open the reports (it confirmed who
// the applicant is in the last 15 minutes), whether the confirmation is locked, and what it asks.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ReportKind } from './report-file';

export type ReportAccess = {
  granted: boolean;
  grantedUntil: string | null;
  /** When the lock after five wrong answers ends; null when not locked. */
  lockedUntil: string | null;
  /** False for an applicant without an SSN: the date of birth alone. */
  ssnRequired: boolean;
  triesLeft: number;
  /** The names the reports download as ("background-report-P1001.pdf"). */
  fileNames: Record<ReportKind, string>;
};

export const reportAccessQuery = () =>
  queryOptions({
    queryKey: ['report-access'],
    queryFn: () => api.get<ReportAccess>('api/v2/user/profile/report/access'),
  });

export const useReportAccess = () => useQuery(reportAccessQuery());
