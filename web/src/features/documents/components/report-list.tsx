// The reports the screening attached (background, drug test, custody and control form), each with
// a link to the viewer (/report), which asks the applicant to confirm who they are before it opens
// and offers the download there; the page and the hub's summary show the same list.
import '@/features/documents/lib/messages';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { formatFileSize } from '@/components/upload-field/upload-field';
import { errorMessageOf } from '@/lib/api-client';
import { t, type MessageKey } from '@/lib/i18n';
import { notify } from '@/lib/notifications';
import { paths } from '@/config/paths';
import type { Report, ReportKind } from '../api/documents';
import styles from './documents.module.css';

const reportTitle: Record<ReportKind, MessageKey> = {
  report: 'documents.report.report',
  'drug-report': 'documents.report.drugReport',
  'ecoc-form': 'documents.report.ecocForm',
};

const readLabel: Record<ReportKind, MessageKey> = {
  report: 'documents.report.readReport',
  'drug-report': 'documents.report.readDrugReport',
  'ecoc-form': 'documents.report.readEcocForm',
};

/** Download, busy while the file comes; a failure says why in the snackbar. */
export function DownloadButton({ name, download }: { name: string; download: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="secondary"
      loading={busy}
      aria-label={t('documents.downloadName', { name })}
      onClick={() => {
        setBusy(true);
        download()
          .catch((error: unknown) => notify(t('documents.downloadFailed', { reason: errorMessageOf(error) }), 'error'))
          .finally(() => setBusy(false));
      }}
    >
      {t('documents.download')}
    </Button>
  );
}

export function ReportList({ reports, compact = false }: { reports: Report[]; compact?: boolean }) {
  return (
    <ul className={styles.files}>
      {reports.map((report) => (
        <li key={report.kind} className={styles.file}>
          <div className={styles.fileText}>
            <span className={styles.fileName}>
              {reportTitle[report.kind] ? t(reportTitle[report.kind]) : report.name}
            </span>
            {compact ? null : (
              <span className={styles.muted}>
                {report.name} · {formatFileSize(report.size)}
              </span>
            )}
          </div>
          <div className={styles.fileActions}>
            <Link to={paths.report.getHref(report.kind === 'report' ? undefined : report.kind)}>
              {t(readLabel[report.kind])}
            </Link>
          </div>
        </li>
      ))}
    </ul>
  );
}
