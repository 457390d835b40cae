import { AdditionalDocumentsPage } from '@/features/documents/components/additional-documents-page';

/** /additional-documents: the documents the employer asked for, and the reports (features/documents). */
export function AdditionalDocumentsRoute() {
  return <AdditionalDocumentsPage />;
}
