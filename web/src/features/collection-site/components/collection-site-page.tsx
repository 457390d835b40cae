// /collection-site (MRO-site-selection-started): the applicant chooses where to give the drug-test
// sample. Choosing saves the site, then moves the status on per spec section 4: to self-pay when a
// payment is owed and not yet made, else to the end (lib/finalization.ts).
import '@/features/collection-site/lib/messages';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { PageHeader } from '@/components/ui/page-header';
import { moveSubjectStatus } from '@/lib/auth';
import { useCurrentUser } from '@/lib/current-user';
import { statusAfterSite } from '@/lib/finalization';
import { t } from '@/lib/i18n';
import { statusHomePath, statusIds } from '@/lib/subject-status';
import { chooseSite } from '../api/chosen-collection-site';
import { paymentAlreadyAuthorized } from '@/lib/payment';
import { SiteSearch } from './site-search';
import styles from './collection-site.module.css';

export function CollectionSitePage() {
  const user = useCurrentUser();
  const client = useQueryClient();
  const navigate = useNavigate();
  const drugZip = user?.subject.personalInformation?.drugZip;
  return (
    <div className={styles.page}>
      <PageHeader title={t('sites.title')} description={t('sites.description')} />
      <SiteSearch
        initialZip={typeof drugZip === 'string' ? drugZip.trim() : ''}
        onChoose={async (site) => {
          await chooseSite(client, site.id);
          // The guards put the user in the cache before the page renders.
          const next = statusAfterSite(user!, await paymentAlreadyAuthorized());
          await moveSubjectStatus(statusIds[next]);
          await navigate(statusHomePath[next], { replace: true });
        }}
      />
    </div>
  );
}
