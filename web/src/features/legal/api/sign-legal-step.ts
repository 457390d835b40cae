import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidateSubject } from '@/lib/subject';
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

export type SignReleaseInput = {
  /** The company's release document (dotReleases[].documentId). */
  documentId: number;
  /** The employment entry the release names (dotReleases[].entryId). */
  instance: string;
  /** The hash of the release's text as it was shown (it names the employer). */
  contentSha256: string;
  fields: Record<string, unknown>;
};

export const signDotRelease = ({ documentId, instance, contentSha256, fields }: SignReleaseInput) =>
  api.post<LegalDocument[]>(`api/v2/user/document/${documentId}/signature`, {
    ...fields,
    instance,
    contentSha256: { [String(documentId)]: contentSha256 },
  });

/** Signs a per-employer DOT release; the hub and the checklist read the subject again (readyToSubmit). */
export function useSignDotRelease() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: signDotRelease,
    onSuccess: async (documents) => {
      client.setQueryData(['legal-documents'], documents);
      forgetSignedTexts(client);
      await invalidateSubject(client);
    },
  });
}

export const deleteSignature = (documentId: number) => api.delete<void>(`api/v2/user/document/${documentId}`);

/** Signed texts are cached for good; a new signature or a cleared one makes them stale. */
export function forgetSignedTexts(client: QueryClient) {
  client.removeQueries({ queryKey: ['legal-document'], predicate: (q) => q.queryKey[2] === 'signed' });
}
