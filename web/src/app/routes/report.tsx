import { ReportPage } from '@/features/report/components/report-page';

/** /report: confirm identity, then read, download or dispute the report (features/report). */
export function ReportRoute() {
  return <ReportPage />;
}
