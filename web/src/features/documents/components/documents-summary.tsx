// The hub's (/profile) view of the documents: each type asked for, sent or not, the way to
// /additional-documents, and the reports to download. Nothing when nothing is asked or attached.
import '@/features/documents/lib/messages';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { t } from '@/lib/i18n';
import { useDocuments } from '../api/documents';
import { ReportList } from './report-list';
import styles from './documents.module.css';

export function DocumentsSummary() {
  const documents = useDocuments();
  const list = documents.data;
  if (documents.isError) {
    return (
      <Card aria-labelledby="documents-summary-title">
        <h2 id="documents-summary-title" className={styles.heading}>
          {t('documents.summary.title')}
        </h2>
        <p>{t('documents.summary.loadFailed')}</p>
        <Button variant="secondary" onClick={() => void documents.refetch()}>
          {t('common.tryAgain')}
        </Button>
      </Card>
    );
  }
  if (!list) {
    return (
      <Card>
        <Skeleton lines={3} label={t('documents.loading')} />
      </Card>
    );
  }
  if (list.documentTypes.length === 0 && list.reports.length === 0) return null;
  return (
    <Card aria-labelledby="documents-summary-title" className={styles.card}>
      <h2 id="documents-summary-title" className={styles.heading}>
        {t('documents.summary.title')}
      </h2>
      {list.documentTypes.length > 0 ? (
        <>
          <ul className={styles.summaryTypes}>
            {list.documentTypes.map((type) => {
              const count = list.documents.filter((d) => d.documentType === type.type).length;
              return (
                <li key={type.type} className={styles.summaryType}>
                  <span>
                    {type.title}
                    {type.required ? <span className={styles.muted}> ({t('documents.required')})</span> : null}
                  </span>
                  <span className={styles.badge} data-sent={count > 0 || undefined}>
                    {count > 0 ? t('documents.summary.sentCount', { count }) : t('documents.summary.notSent')}
                  </span>
                </li>
              );
            })}
          </ul>
          <p>
            <Link to={paths.additionalDocuments.getHref()}>{t('documents.summary.link')}</Link>
          </p>
        </>
      ) : null}
      {list.reports.length > 0 ? (
        <>
          <h3 className={styles.subheading}>{t('documents.reports.title')}</h3>
          <ReportList reports={list.reports} compact />
        </>
      ) : null}
    </Card>
  );
}
