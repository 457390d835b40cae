import { useDocuments } from '@/features/documents/api/documents';
import { SignedDocuments } from '@/features/legal/components/signed-documents';
import { usePdfForms } from '@/features/pdf-forms/api/pdf-forms';
import { ConfirmationReview } from '@/features/profile/components/confirmation-review';

/**
 * /confirmation: review everything, then make the declaration and start identity verification. The
 * documents sent, the forms and the signed legal documents come from their own features.
 */
export function ConfirmationRoute() {
  const documents = useDocuments().data;
  const forms = usePdfForms().data;
  return (
    <ConfirmationReview
      documents={documents?.documentTypes.map((type) => ({
        title: type.title,
        files: documents.documents.filter((d) => d.documentType === type.type).map((d) => d.name),
      }))}
      forms={forms?.map((form) => ({ title: form.title, submittedAt: form.submitted?.submittedAt ?? null }))}
      signedDocuments={<SignedDocuments />}
    />
  );
}
