// /collection-site-update (finalization-complete): the applicant changes the site until the sample
// is collected, or the employer stops allowing it. The status does not move.
import '@/features/collection-site/lib/messages';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import buttonStyles from '@/components/ui/button.module.css';
import { Alert } from '@/components/ui/alert';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { errorMessageOf } from '@/lib/api-client';
import { useCurrentUser } from '@/lib/current-user';
import { t } from '@/lib/i18n';
import { notify } from '@/lib/notifications';
import { chooseSite, useChosenSite, type ChosenSite } from '../api/chosen-collection-site';
import { LoadFailed } from '@/components/load-failed/load-failed';
import { longDate } from '@/lib/format-date';
import { SiteSummary } from './site-details';
import { SiteSearch } from './site-search';
import styles from './collection-site.module.css';

function NotChangeable({ chosen }: { chosen: ChosenSite }) {
  return (
    <>
      <Alert tone="info" title={t('sites.notChangeable.title')}>
        <p>
          {chosen.collectedAt
            ? t('sites.notChangeable.collected', { date: longDate(chosen.collectedAt) })
            : t('sites.notChangeable.notAllowed')}
        </p>
      </Alert>
      <p>
        <Link className={`${buttonStyles.button} ${buttonStyles.secondary}`} to={paths.home.getHref()}>
          {t('sites.back')}
        </Link>
      </p>
    </>
  );
}

export function CollectionSiteUpdatePage() {
  const chosen = useChosenSite();
  const client = useQueryClient();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const drugZip = user?.subject.personalInformation?.drugZip;
  const current = chosen.data?.site ?? null;

  let body;
  if (chosen.isError) {
    body = (
      <LoadFailed
        title={t('sites.current.loadFailedTitle')}
        text={t('sites.current.loadFailed', { reason: errorMessageOf(chosen.error) })}
        retry={chosen.refetch}
      />
    );
  } else if (!chosen.data) {
    body = (
      <Card>
        <Skeleton lines={4} label={t('sites.current.loading')} />
      </Card>
    );
  } else {
    body = (
      <>
        <Card aria-labelledby="sites-current-title" className={styles.card}>
          <h2 id="sites-current-title" className={styles.heading}>
            {t('sites.current.title')}
          </h2>
          {current ? <SiteSummary site={current} /> : <p>{t('sites.current.none')}</p>}
        </Card>
        {chosen.data.changeable ? (
          <SiteSearch
            // The current site's ZIP first: the applicant most likely wants one near it.
            initialZip={current?.address.zip ?? (typeof drugZip === 'string' ? drugZip.trim() : '')}
            currentSiteId={current?.id}
            onChoose={async (site) => {
              await chooseSite(client, site.id);
              notify(t('sites.updated'), 'success');
              await navigate(paths.home.getHref());
            }}
          />
        ) : (
          <NotChangeable chosen={chosen.data} />
        )}
      </>
    );
  }

  return (
    <div className={styles.page}>
      <PageHeader title={t('sites.updateTitle')} description={t('sites.updateDescription')} />
      {body}
    </div>
  );
}
