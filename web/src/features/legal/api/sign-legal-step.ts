import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { LegalDocument } from '../lib/legal-steps';

export type SignStepInput = {
  /** Any document of the step; the server signs every document of that step. */
  documentId: number;
  /** The hash of each document's text as it was shown, by document id. */
  contentSha256: Record<string, string>;
  fields: Record<string, unknown>;
};

export const signLegalStep = ({ documentId, contentSha256, fields }: SignStepInput) =>
  api.post<LegalDocument[]>(`api/v2/user/document/${documentId}/signature`, { ...fields, contentSha256 });

export function useSignLegalStep() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: signLegalStep,
    onSuccess: (documents) => {
      client.setQueryData(['legal-documents'], documents);
      forgetSignedTexts(client);
    },
  });
}

export const deleteSignature = (documentId: number) => api.delete<void>(`api/v2/user/document/${documentId}`);

/** Signed texts are cached for good; a new signature or a cleared one makes them stale. */
export function forgetSignedTexts(client: QueryClient) {
  client.removeQueries({ queryKey: ['legal-document'], predicate: (q) => q.queryKey[2] === 'signed' });
}
