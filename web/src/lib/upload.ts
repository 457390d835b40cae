// File uploads (spec section 5): multipart POSTs through the api-client (base URL, Accept header,
// bearer token, one refresh-and-replay on a 401, failures as ApiError with the server's
// errorMessage and errorFields), sent by XMLHttpRequest rather than fetch, because fetch reports
// no upload progress.
import '@/components/upload-field/messages';
import { ApiError, apiRequest } from './api-client';
import { t } from './i18n';

/** How long the snackbar of an upload's outcome stays (spec section 9). */
export const UPLOAD_MESSAGE_TIMEOUT = 20000;

export type UploadOptions = {
  /** Bytes of the request body sent so far, and its total. */
  onProgress?: (loaded: number, total: number) => void;
  /** Aborting it cancels the upload: the promise rejects with an AbortError. */
  signal?: AbortSignal;
};

/**
 * How many uploads one applicant sends at once: the server gives each applicant 3 upload slots and
 * answers 503 to a fourth that waits too long, so the app queues the rest.
 */
export const MAX_PARALLEL_UPLOADS = 3;

/** Runs uploads at most `limit` at a time, in the order asked; one cancelled while queued never starts. */
export function uploadQueue(limit = MAX_PARALLEL_UPLOADS) {
  let running = 0;
  const waiting: Array<() => void> = [];
  const next = () => {
    running -= 1;
    waiting.shift()?.();
  };
  return function queued<T>(start: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const run = () => {
        if (signal?.aborted) {
          reject(abortError());
          waiting.shift()?.();
          return;
        }
        running += 1;
        // The next one starts before this one's caller goes on.
        start().then(
          (value) => {
            next();
            resolve(value);
          },
          (error: unknown) => {
            next();
            reject(error);
          },
        );
      };
      if (running < limit) {
        run();
        return;
      }
      waiting.push(run);
      signal?.addEventListener('abort', () => {
        const at = waiting.indexOf(run);
        if (at >= 0) {
          waiting.splice(at, 1);
          reject(abortError());
        }
      });
    });
  };
}

/** True for the rejection of an upload its signal cancelled. */
export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

function abortError() {
  return new DOMException('The upload was cancelled.', 'AbortError');
}

function headersOf(xhr: XMLHttpRequest): Headers {
  const headers = new Headers();
  for (const line of xhr
    .getAllResponseHeaders()
    .trim()
    .split(/[\r\n]+/)) {
    const at = line.indexOf(':');
    if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return headers;
}

/** A fetch for the api-client that sends with XMLHttpRequest, reporting the upload's progress. */
function xhrTransport(onProgress: UploadOptions['onProgress']): typeof fetch {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const { signal } = init;
      if (signal?.aborted) {
        reject(abortError());
        return;
      }
      const xhr = new XMLHttpRequest();
      const onAbort = () => xhr.abort();
      const settled = () => signal?.removeEventListener('abort', onAbort);
      xhr.open(init.method ?? 'GET', String(input));
      // The browser sets the multipart Content-Type with its boundary.
      for (const [name, value] of new Headers(init.headers)) xhr.setRequestHeader(name, value);
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress?.(event.loaded, event.total);
      };
      xhr.onload = () => {
        settled();
        // A Response may not carry a body with these statuses.
        const empty = [101, 204, 205, 304].includes(xhr.status);
        resolve(new Response(empty ? null : xhr.responseText, { status: xhr.status, headers: headersOf(xhr) }));
      };
      xhr.onerror = () => {
        settled();
        // What fetch rejects with when the network fails: errorMessageOf says so in words.
        reject(new TypeError('Network request failed'));
      };
      xhr.onabort = () => {
        settled();
        reject(abortError());
      };
      signal?.addEventListener('abort', onAbort);
      xhr.send(init.body as XMLHttpRequestBodyInit | null);
    });
}

/** POSTs `formData` to the API path (multipart), reporting progress; resolves with the parsed JSON answer. */
export async function uploadFile<T>(path: string, formData: FormData, options: UploadOptions = {}): Promise<T> {
  try {
    return await apiRequest<T>(path, {
      method: 'POST',
      body: formData,
      signal: options.signal,
      transport: xhrTransport(options.onProgress),
    });
  } catch (error) {
    // A proxy in front of the server may refuse an oversized body with a page of its own (not JSON).
    if (
      error instanceof ApiError &&
      error.status === 413 &&
      error.errorMessage === t('errors.request.failed', { status: 413 })
    ) {
      throw new ApiError(413, { errorMessage: t('upload.tooLargeServer') }, error.retryAfter);
    }
    throw error;
  }
}
