import { CollectionSiteCard } from '@/features/collection-site/components/collection-site-card';
import { useDocuments } from '@/features/documents/api/documents';
import { DocumentUploads } from '@/features/documents/components/additional-documents-page';
import { ReportList } from '@/features/documents/components/report-list';
import { HomeDocuments, HomePage, HomeSection } from '@/features/home/components/home-page';
import { SignedDocuments } from '@/features/legal/components/signed-documents';
import { Skeleton } from '@/components/ui/skeleton';
import { t } from '@/lib/i18n';

/** The reports the screening attached, each to download; nothing until one is (or when they cannot be read). */
function Reports() {
  const documents = useDocuments();
  if (documents.isPending)
    return (
      <HomeSection id="home-reports-title" title={t('home.reports.title')}>
        <Skeleton lines={2} label={t('home.reports.loading')} />
      </HomeSection>
    );
  const reports = documents.data?.reports ?? [];
  if (reports.length === 0) return null;
  return (
    <HomeSection id="home-reports-title" title={t('home.reports.title')}>
      <ReportList reports={reports} />
    </HomeSection>
  );
}

/** The documents the package asks for: still open to send while the screening runs. */
function Documents() {
  const documents = useDocuments();
  if (!documents.data?.documentTypes.length) return null;
  return (
    <HomeDocuments>
      <DocumentUploads standalone={false} />
    </HomeDocuments>
  );
}

/**
 * /: the final state for finalization-complete applicants (features/home), with the chosen collection
 * site (features/collection-site), what was signed (features/legal) and the reports (features/documents).
 */
export function HomeRoute() {
  return (
    <HomePage
      collectionSite={<CollectionSiteCard />}
      signedDocuments={<SignedDocuments />}
      reports={<Reports />}
      documents={<Documents />}
    />
  );
}
