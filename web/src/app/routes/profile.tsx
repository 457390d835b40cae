import { DotReleaseList } from '@/features/legal/components/dot-release-list';
import { PendingDocuments } from '@/features/legal/components/pending-documents';
import { SignedDocuments } from '@/features/legal/components/signed-documents';
import { DocumentsSummary } from '@/features/documents/components/documents-summary';
import { FormsSummary } from '@/features/pdf-forms/components/forms-summary';
import { ProfileHub } from '@/features/profile/components/profile-hub';
import { OrderServices } from '@/features/screening/components/screening-services';
import { LaterNote } from '@/features/setup/components/later-note';

/**
 * /profile, the hub after setup, with the documents and forms the employer asks for (features/documents,
 * features/pdf-forms) and the legal documents (features/legal): those still to sign (one applicable since
 * setup, a DOT release per DOT-regulated employer) above those signed, and what the applicant said on the
 * Welcome step they would find later (features/setup).
 */
export function ProfileRoute() {
  return (
    <ProfileHub
      reminders={<LaterNote />}
      orderServices={(orderId) => <OrderServices orderId={orderId} phase="before" />}
      documents={
        <>
          <DocumentsSummary />
          <FormsSummary />
        </>
      }
      signedDocuments={
        <>
          <PendingDocuments />
          <DotReleaseList />
          <SignedDocuments />
        </>
      }
    />
  );
}
