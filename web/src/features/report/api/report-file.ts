// GET /api/v2/user/profile/{kind}?disposition=inline|attachment: the report's PDF, once this session
// confirmed who the applicant is (403 otherwise). The server records each answer as a view (the
// viewer) or a download.
import { api } from '@/lib/api-client';
import { saveFile } from '@/lib/download';
import type { MessageKey } from '@/lib/i18n';

export type ReportKind = 'report' | 'drug-report' | 'ecoc-form';

export const REPORT_KINDS: readonly ReportKind[] = ['report', 'drug-report', 'ecoc-form'];

/** Each kind's page title and its name in the viewer, named whole so the catalogue's check finds them. */
export const reportTitleKey: Record<ReportKind, MessageKey> = {
  report: 'report.title.report',
  'drug-report': 'report.title.drug-report',
  'ecoc-form': 'report.title.ecoc-form',
};
export const reportNameKey: Record<ReportKind, MessageKey> = {
  report: 'report.kind.report',
  'drug-report': 'report.kind.drug-report',
  'ecoc-form': 'report.kind.ecoc-form',
};

export function fetchReport(kind: ReportKind, disposition: 'inline' | 'attachment') {
  // A 403 (the 15 minutes ran out) is the page's to explain: it asks again.
  return api.get<Blob>(`api/v2/user/profile/${kind}`, {
    query: { disposition },
    responseType: 'blob',
    silentForbidden: true,
  });
}

/** Downloads the report under `name` (ReportAccess.fileNames). */
export async function downloadReport(kind: ReportKind, name: string) {
  saveFile(await fetchReport(kind, 'attachment'), name);
}
