import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { legalDocumentsQueryOptions } from './get-legal-documents';
import { deleteSignature, forgetSignedTexts } from './sign-legal-step';

/**
 * Spec section 4: deletes each stored signature of the applicant on the
 * server. The forms wipe their own last four digits, no-SSN flag, signature
 * and SSN entries (they start empty once the legal steps show again).
 */
export async function clearSignatures(client: QueryClient): Promise<void> {
  const documents = await client.fetchQuery({ ...legalDocumentsQueryOptions(), staleTime: 0 });
  try {
    await Promise.all(documents.filter((d) => d.signature).map((d) => deleteSignature(d.id)));
  } finally {
    // Whatever was deleted before a failure is gone: show the list as it is.
    forgetSignedTexts(client);
    // 'all': the legal steps are usually not on screen when this runs (the
    // personal step is); an inactive query would only be marked stale, and
    // the legal steps would mount on the old, all-signed list and complete
    // themselves again.
    await client.invalidateQueries({ queryKey: legalDocumentsQueryOptions().queryKey, refetchType: 'all' });
  }
}

export function useClearSignatures() {
  const client = useQueryClient();
  return useMutation({ mutationFn: () => clearSignatures(client) });
}
