// /report (?kind=drug-report|ecoc-form): the applicant confirms who they are, then reads the report in
// the viewer, downloads it, and may dispute it. Reached from the reports card on / and from
// /additional-documents; live, so a report attached while the page is open is there at once.
import '@/features/report/lib/messages';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { Link, useSearchParams } from 'react-router';
import { LoadFailed } from '@/components/load-failed/load-failed';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { errorMessageOf } from '@/lib/api-client';
import { useFocusTitle } from '@/lib/focus-title';
import { t } from '@/lib/i18n';
import { notify } from '@/lib/notifications';
import { reportAccessQuery, useReportAccess } from '../api/get-report-access';
import { REPORT_KINDS, reportTitleKey, type ReportKind } from '../api/report-file';
import { ConfirmIdentityForm } from './confirm-identity-form';
import { ReportViewer } from './report-viewer';
import styles from './report.module.css';

const TITLE_ID = 'report-title';

/** The report the address names; the background report for anything else. */
export function reportKindOf(value: string | null): ReportKind {
  return REPORT_KINDS.find((k) => k === value) ?? 'report';
}

export function ReportPage() {
  const [params] = useSearchParams();
  const kind = reportKindOf(params.get('kind'));
  const access = useReportAccess();
  const client = useQueryClient();
  const granted = access.data?.granted ?? false;
  // Again when the report opens: the form that had focus is gone.
  useFocusTitle(TITLE_ID, `${kind}:${String(granted)}`);
  const onExpired = useCallback(() => {
    notify(t('report.viewer.expired'), 'info');
    void client.invalidateQueries({ queryKey: reportAccessQuery().queryKey });
  }, [client]);

  let body;
  if (access.isPending) body = <Skeleton lines={3} label={t('report.loading')} />;
  else if (access.isError)
    body = (
      <LoadFailed
        title={t('report.loadFailed')}
        text={t('report.loadFailedText', { reason: errorMessageOf(access.error) })}
        retry={access.refetch}
      />
    );
  else if (!access.data.granted) body = <ConfirmIdentityForm access={access.data} />;
  else
    body = (
      <>
        <ReportViewer kind={kind} fileName={access.data.fileNames[kind]} onExpired={onExpired} />
        <section className={styles.dispute} aria-labelledby="report-dispute-title">
          <h2 id="report-dispute-title" className={styles.heading}>
            {t('report.viewer.disputeTitle')}
          </h2>
          <p>{t('report.viewer.disputeText')}</p>
          <p>
            <Link to={paths.disputeNew.getHref()}>{t('report.viewer.dispute')}</Link>
          </p>
        </section>
      </>
    );

  return (
    <div className={styles.page}>
      <PageHeader titleId={TITLE_ID} title={t(reportTitleKey[kind])} />
      {body}
    </div>
  );
}
