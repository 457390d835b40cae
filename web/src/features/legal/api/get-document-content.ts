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

export const getDocumentContent = (id: number) => api.get<DocumentContent>(`api/v2/document/${id}`);

export const documentContentQueryOptions = (id: number) =>
  queryOptions({ queryKey: ['legal-document', id], queryFn: () => getDocumentContent(id), staleTime: Infinity });

export const useDocumentContent = (id: number) => useQuery(documentContentQueryOptions(id));
