import { AdverseActionCard } from '@/features/adverse-action/components/adverse-action-card';
import { CollectionSiteCard } from '@/features/collection-site/components/collection-site-card';
import { documentsQuery, useDocuments } from '@/features/documents/api/documents';
import { DisputesCard } from '@/features/disputes/components/disputes-list';
import { DocumentUploads } from '@/features/documents/components/additional-documents-page';
import { ReportList } from '@/features/documents/components/report-list';
import { HomeDocuments, HomePage, HomeSection } from '@/features/home/components/home-page';
import { ScreeningServices } from '@/features/screening/components/screening-services';
import { useLegalDocuments } from '@/features/legal/api/get-legal-documents';
import { useSubjectLocation } from '@/features/legal/api/subject-location';
import { SignedDocuments } from '@/features/legal/components/signed-documents';
import { releasesForPrint } from '@/features/legal/components/print-document';
import { legalSteps, printNameOf } from '@/features/legal/lib/legal-steps';
import { Skeleton } from '@/components/ui/skeleton';
import { t } from '@/lib/i18n';
import { useLiveScreening } from '@/lib/screening-events';

/**
 * The reports the screening attached, each a link to the viewer (which asks the applicant to confirm who
 * they are); nothing until one is (or when they cannot be read). A report attached meanwhile appears live.
 */
function Reports() {
  const documents = useDocuments();
  useLiveScreening(['report'], [documentsQuery().queryKey]);
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

/** The files sent, and the documents the package asks for: still open to send while the screening runs. */
function Documents() {
  const documents = useDocuments();
  if (!documents.data?.documentTypes.length) return null;
  return (
    <HomeDocuments sent={documents.data.documents.length}>
      <DocumentUploads standalone={false} />
    </HomeDocuments>
  );
}

/** How many documents SignedDocuments lists (the same documents and DOT releases); null until known. */
function useSignedCount(): number | null {
  const documents = useLegalDocuments();
  const location = useSubjectLocation();
  if (!documents.data || !location.data) return null;
  const signed = legalSteps(documents.data, location.data)
    .flatMap((s) => s.documents)
    .filter((d) => d.signature).length;
  return signed + releasesForPrint(documents.data, printNameOf('dot_release')).length;
}

/**
 * /: the final state for finalization-complete applicants (features/home), with the chosen collection
 * site (features/collection-site), an adverse-action notice (features/adverse-action), each service's state
 * (features/screening), what was signed (features/legal), the reports (features/documents) and the disputes
 * (features/disputes).
 */
export function HomeRoute() {
  return (
    <HomePage
      notice={<AdverseActionCard />}
      collectionSite={<CollectionSiteCard />}
      signedDocuments={<SignedDocuments />}
      signedCount={useSignedCount()}
      reports={
        <>
          <Reports />
          <DisputesCard />
        </>
      }
      documents={<Documents />}
      services={<ScreeningServices />}
    />
  );
}
