// /aliases "Other Names": the names the applicant has used, read fresh on
// every visit; the form waits for them and for the suffixes it offers.
import '@/features/history/lib/messages';
import { useQuery } from '@tanstack/react-query';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { historyQueries } from '@/features/history/api/history-api';
import { AliasesForm } from '@/features/history/components/aliases-form';
import { useAfterSave } from '@/features/history/lib/next-page';
import { errorMessageOf } from '@/lib/api-client';
import { t } from '@/lib/i18n';
import { useSuffixes } from '@/lib/lookups';
import styles from './page.module.css';

export function AliasesRoute() {
  const aliases = useQuery({ ...historyQueries.aliases(), refetchOnMount: 'always' });
  const suffixes = useSuffixes();
  const afterSave = useAfterSave('aliases');
  const failed = aliases.isError ? aliases : suffixes.isError ? suffixes : null;
  return (
    <div className={styles.page}>
      <PageHeader title={t('history.alias.title')} description={t('history.alias.description')} />
      {failed ? (
        <Alert>
          <p>
            {failed === aliases
              ? t('history.alias.retrieve', { reason: errorMessageOf(failed.error) })
              : t('errors.lookup', { reason: errorMessageOf(failed.error) })}
          </p>
          <Button variant="secondary" onClick={() => void failed.refetch()}>
            {t('common.tryAgain')}
          </Button>
        </Alert>
      ) : aliases.isFetchedAfterMount && aliases.data && suffixes.data ? (
        <AliasesForm initial={aliases.data} onSaved={(intent) => void afterSave(intent)} />
      ) : (
        <p role="status">{t('history.loading')}</p>
      )}
    </div>
  );
}
