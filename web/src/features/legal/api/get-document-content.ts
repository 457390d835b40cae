import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type DocumentContent = {
  id: number;
  title: string;
  version: number;
  documentType: string;
  /** Sanitized HTML with the tokens replaced. */
  content: string;
  /** What a signature of this text must carry. */
  contentSha256: string;
};

/** The current text; with signed, the text exactly as the applicant signed it (maybe an older version). */
export const getDocumentContent = (id: number, signed = false) =>
  api.get<DocumentContent>(`api/v2/document/${id}`, signed ? { query: { signed: 'true' } } : undefined);

export const documentContentQueryOptions = (id: number, signed = false) =>
  queryOptions({
    queryKey: ['legal-document', id, signed ? 'signed' : 'current'],
    queryFn: () => getDocumentContent(id, signed),
    staleTime: Infinity,
  });

export const useDocumentContent = (id: number, signed = false) => useQuery(documentContentQueryOptions(id, signed));
