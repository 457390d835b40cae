import { api } from '@/lib/api-client';

/** Downloads the signed copy of a document; the object URL is revoked after 100 ms (spec section 9). */
export async function downloadSignedPdf(documentId: number, filename: string) {
  const blob = await api.get<Blob>(`api/v2/user/document/${documentId}`, { responseType: 'blob' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 100);
}
