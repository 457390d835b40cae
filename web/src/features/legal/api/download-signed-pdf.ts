import { api } from '@/lib/api-client';

/** Hands a file to the browser's download; the object URL is revoked after 100 ms (spec section 9). */
export function saveFile(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 100);
}

/** Downloads the signed copy of a document; with an instance, of that per-employer DOT release. */
export async function downloadSignedPdf(documentId: number, filename: string, instance = '') {
  saveFile(
    await api.get<Blob>(`api/v2/user/document/${documentId}`, {
      responseType: 'blob',
      ...(instance ? { query: { instance } } : {}),
    }),
    filename,
  );
}
