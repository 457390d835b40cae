import { CollectionSitePage } from '@/features/collection-site/components/collection-site-page';
import { CollectionSiteUpdatePage } from '@/features/collection-site/components/collection-site-update-page';

/** /collection-site: choose where to give the drug-test specimen (features/collection-site). */
export function CollectionSiteRoute() {
  return <CollectionSitePage />;
}

/** /collection-site-update: change the chosen site until the specimen is collected (features/collection-site). */
export function CollectionSiteUpdateRoute() {
  return <CollectionSiteUpdatePage />;
}
