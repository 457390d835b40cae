/** How long an object URL handed to a download lives (spec section 9). */
export const DOWNLOAD_URL_REVOKE_MS = 100;

/** Hands a file to the browser's download; the object URL is revoked after DOWNLOAD_URL_REVOKE_MS. */
export function saveFile(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), DOWNLOAD_URL_REVOKE_MS);
}
