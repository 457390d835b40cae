// File uploads (spec section 5): multipart POSTs through XMLHttpRequest, because fetch reports no
// upload progress. Otherwise they behave like every other request of the api-client: the same base
// URL, Accept header and bearer token, one refresh-and-replay on a 401, and failures as ApiError
// with the server's errorMessage and errorFields.
import '@/components/upload-field/messages';
import type { ErrorBody } from '@/types/api';
import { ACCEPT_HEADER, ApiError, apiMessages, apiUrl, recoverFromUnauthorized } from './api-client';
import { t } from './i18n';
import { notify } from './notifications';
import { session } from './session';

/** How long the snackbar of an upload's outcome stays (spec section 9). */
export const UPLOAD_MESSAGE_TIMEOUT = 20000;

export type UploadOptions = {
  /** Bytes of the request body sent so far, and its total. */
  onProgress?: (loaded: number, total: number) => void;
  /** Aborting it cancels the upload: the promise rejects with an AbortError. */
  signal?: AbortSignal;
};

type RawAnswer = { status: number; text: string; retryAfter: string | null };

function abortError() {
  return new DOMException('The upload was cancelled.', 'AbortError');
}

/** True for the rejection of an upload its signal cancelled. */
export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

function send(path: string, body: FormData, jwt: string | null, options: UploadOptions): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const { signal, onProgress } = options;
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const settle = () => signal?.removeEventListener('abort', onAbort);
    xhr.open('POST', apiUrl(path));
    xhr.setRequestHeader('Accept', ACCEPT_HEADER);
    if (jwt) xhr.setRequestHeader('Authorization', `Bearer ${jwt}`);
    // The browser sets the multipart Content-Type with its boundary.
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress?.(event.loaded, event.total);
    };
    xhr.onload = () => {
      settle();
      resolve({ status: xhr.status, text: xhr.responseText, retryAfter: xhr.getResponseHeader('Retry-After') });
    };
    xhr.onerror = () => {
      settle();
      // What fetch rejects with on a network failure: errorMessageOf says so in words.
      reject(new TypeError('Network request failed'));
    };
    xhr.onabort = () => {
      settle();
      reject(abortError());
    };
    signal?.addEventListener('abort', onAbort);
    xhr.send(body);
  });
}

function errorOf(answer: RawAnswer): ApiError {
  let body: ErrorBody = {};
  try {
    if (answer.text) body = JSON.parse(answer.text) as ErrorBody;
  } catch {
    // not JSON (a proxy's HTML page): the generic message, or the limit's below
  }
  // A proxy in front of the server may refuse an oversized body with its own page.
  if (answer.status === 413 && !body.errorMessage) body = { errorMessage: t('upload.tooLargeServer') };
  return new ApiError(answer.status, body, answer.retryAfter);
}

async function attempt<T>(path: string, body: FormData, options: UploadOptions, retried: boolean): Promise<T> {
  const jwt = session.get().credentials.jwt;
  const answer = await send(path, body, jwt, options);
  if (answer.status >= 200 && answer.status < 300) {
    return (answer.text ? JSON.parse(answer.text) : undefined) as T;
  }
  const error = errorOf(answer);
  if (answer.status === 401) {
    await recoverFromUnauthorized(path, jwt, error, retried);
    // The form data is sent again whole: a File can be read more than once.
    return attempt<T>(path, body, options, true);
  }
  if (answer.status === 403) notify(apiMessages.accessDenied, 'error');
  throw error;
}

/** POSTs `formData` to the API path (multipart), reporting progress; resolves with the parsed JSON answer. */
export function uploadFile<T>(path: string, formData: FormData, options: UploadOptions = {}): Promise<T> {
  return attempt<T>(path, formData, options, false);
}
