// Home's card of the chosen collection site (features/home takes it from the route): where to go,
// and a way to change it while that is still allowed. Nothing when no site was chosen.
import '@/features/collection-site/lib/messages';
import { Link } from 'react-router';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { errorMessageOf } from '@/lib/api-client';
import { t } from '@/lib/i18n';
import { useChosenSite } from '../api/chosen-collection-site';
import { LoadFailed } from '@/components/load-failed/load-failed';
import { SiteSummary } from './site-details';
import styles from './collection-site.module.css';
import { longDate } from '@/lib/format-date';

export function CollectionSiteCard() {
  const chosen = useChosenSite();
  if (chosen.isError) {
    return (
      <LoadFailed
        title={t('sites.current.loadFailedTitle')}
        text={t('sites.current.loadFailed', { reason: errorMessageOf(chosen.error) })}
        retry={chosen.refetch}
      />
    );
  }
  if (!chosen.data) {
    return (
      <Card>
        <Skeleton lines={4} label={t('sites.current.loading')} />
      </Card>
    );
  }
  const { site, chosenAt, changeable } = chosen.data;
  if (!site) return null;
  return (
    <Card aria-labelledby="home-site-title" className={styles.card}>
      <div className={styles.cardHead}>
        <h2 id="home-site-title" className={styles.heading}>
          {t('sites.card.title')}
        </h2>
        {changeable ? <Link to={paths.collectionSiteUpdate.getHref()}>{t('sites.current.change')}</Link> : null}
      </div>
      <SiteSummary site={site} />
      <p className={styles.muted}>
        {chosenAt ? `${t('sites.current.chosenAt', { date: longDate(chosenAt) })} · ` : ''}
        {t('sites.card.bring')}
      </p>
    </Card>
  );
}
