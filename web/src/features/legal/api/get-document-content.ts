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
  /** The language of title and content: the page's when the document has a text in it, else en-US; signed, the language signed. */
  language?: string;
  /** A per-employer DOT release: the employment entry and the employer it names. */
  instance?: string;
  employerName?: string;
};

/**
 * The current text; with signed, the text exactly as the applicant signed it (maybe an older version). With an
 * instance, the per-employer DOT release of that employment entry, which names its employer.
 */
export const getDocumentContent = (id: number, signed = false, instance = '') => {
  const query: Record<string, string> = {};
  if (signed) query.signed = 'true';
  if (instance) query.instance = instance;
  return api.get<DocumentContent>(`api/v2/document/${id}`, Object.keys(query).length ? { query } : undefined);
};

export const documentContentQueryOptions = (id: number, signed = false, instance = '') =>
  queryOptions({
    // The instance goes last: forgetSignedTexts matches on the third part.
    queryKey: ['legal-document', id, signed ? 'signed' : 'current', ...(instance ? [instance] : [])],
    queryFn: () => getDocumentContent(id, signed, instance),
    staleTime: Infinity,
  });

export const useDocumentContent = (id: number, signed = false, instance = '') =>
  useQuery(documentContentQueryOptions(id, signed, instance));
