import { api } from '@/lib/api-client';
import { saveFile } from '@/lib/download';

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
