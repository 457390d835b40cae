// The applicant's documents (contract of issue 11): the types the package asks for, the files sent
// for them, the reports attached, and whether files may still be added or deleted.
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { saveFile } from '@/lib/download';
import { invalidateSubject } from '@/lib/subject';
import { uploadFile, type UploadOptions } from '@/lib/upload';

export type DocumentType = {
  /** The code, such as "drivers_license". */
  type: string;
  title: string;
  description: string;
  required: boolean;
};

export type UploadedDocument = {
  id: number;
  /** DocumentType.type */
  documentType: string;
  /** As the server stored it (sanitized). */
  name: string;
  contentType: string;
  size: number;
  sha256: string;
  createdAt: string;
};

export type ReportKind = 'report' | 'drug-report' | 'ecoc-form';

export type Report = { kind: ReportKind; name: string; size: number; createdAt: string };

/** GET /api/v2/user/profile/documents */
export type DocumentList = {
  documentTypes: DocumentType[];
  /** Newest first. */
  documents: UploadedDocument[];
  /** Only those attached, in the order report, drug-report, ecoc-form. */
  reports: Report[];
  /** False once the screening is complete: no upload or delete. */
  writable: boolean;
  /** False once the profile is submitted: what was sent is the screening team's, no delete. */
  deletable: boolean;
  maxUploadBytes: number;
};

const DOCUMENTS = 'api/v2/user/profile/documents';

export const documentsQuery = () =>
  queryOptions({ queryKey: ['documents'], queryFn: () => api.get<DocumentList>(DOCUMENTS) });

export const useDocuments = () => useQuery(documentsQuery());

/** Sends one file for a document type: multipart with documentType first, then the file (the server reads in order). */
export function uploadDocument(documentType: string, file: File, options: UploadOptions = {}) {
  const body = new FormData();
  body.append('documentType', documentType);
  body.append('file', file, file.name);
  return uploadFile<UploadedDocument>(DOCUMENTS, body, options);
}

export function deleteDocument(id: number) {
  return api.delete<void>(`${DOCUMENTS}/${id}`);
}

export async function downloadDocument(document: Pick<UploadedDocument, 'id' | 'name'>) {
  saveFile(await api.get<Blob>(`${DOCUMENTS}/${document.id}`, { responseType: 'blob' }), document.name);
}

/**
 * After an upload or a delete: the list, and the checklist (the page's missing sentences, the hub).
 * GET /api/v2/user's documentTypes list what is asked, not what was sent: it does not change.
 */
export function invalidateDocuments(client: QueryClient) {
  return Promise.all([client.invalidateQueries({ queryKey: ['documents'] }), invalidateSubject(client)]);
}
