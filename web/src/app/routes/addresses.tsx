// /addresses "Address History": the addresses read fresh on every visit; the
// form waits for them and for the countries and states it offers.
import '@/features/history/lib/messages';
import { useQuery } from '@tanstack/react-query';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { historyQueries } from '@/features/history/api/history-api';
import { AddressesForm } from '@/features/history/components/addresses-form';
import { useAfterSave } from '@/features/history/lib/next-page';
import { errorMessageOf } from '@/lib/api-client';
import { t } from '@/lib/i18n';
import { useCountries, useStates } from '@/lib/lookups';
import styles from './page.module.css';

export function AddressesRoute() {
  const addresses = useQuery({ ...historyQueries.addresses(), refetchOnMount: 'always' });
  const lookups = [useCountries(), useStates()];
  const afterSave = useAfterSave('addresses');
  const lookupFailed = lookups.find((l) => l.isError);
  return (
    <div className={styles.page}>
      <PageHeader title={t('history.address.title')} description={t('history.address.description')} />
      {addresses.isError ? (
        <Alert>
          <p>{t('history.address.retrieve', { reason: errorMessageOf(addresses.error) })}</p>
          <Button variant="secondary" onClick={() => void addresses.refetch()}>
            {t('common.tryAgain')}
          </Button>
        </Alert>
      ) : lookupFailed ? (
        <Alert>
          <p>{t('errors.lookup', { reason: errorMessageOf(lookupFailed.error) })}</p>
          <Button variant="secondary" onClick={() => lookups.forEach((l) => l.isError && void l.refetch())}>
            {t('common.tryAgain')}
          </Button>
        </Alert>
      ) : addresses.isFetchedAfterMount && addresses.data && lookups.every((l) => l.data) ? (
        <AddressesForm initial={addresses.data} onSaved={(intent) => void afterSave(intent)} />
      ) : (
        <p role="status">{t('history.loading')}</p>
      )}
    </div>
  );
}
