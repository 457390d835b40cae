import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCEPT_HEADER, ApiError, apiUrl, errorMessageOf } from '@/lib/api-client';
import { setNavigator } from '@/lib/navigation';
import { session } from '@/lib/session';
import { isAbort, uploadFile, uploadQueue } from '@/lib/upload';
import { tokenResponse } from '@/testing/fixtures';
import { logInAs } from '@/testing/render-app';
import { server } from '@/testing/server';

/** A stand-in for XMLHttpRequest that the test answers by hand. */
class FakeXhr {
  static sent: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  responseText = '';
  aborted = false;
  responseHeaders: Record<string, string> = {};
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  getAllResponseHeaders() {
    return Object.entries(this.responseHeaders)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
  }
  send(body: unknown) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
  }
  respond(status: number, text: string, headers: Record<string, string> = {}) {
    this.status = status;
    this.responseText = text;
    this.responseHeaders = headers;
    this.onload?.();
  }
}

/** The n-th request sent, once it is. */
async function sent(n: number): Promise<FakeXhr> {
  await vi.waitFor(() => expect(FakeXhr.sent.length).toBeGreaterThan(n));
  return FakeXhr.sent[n];
}

const PATH = 'api/v2/user/profile/documents';

function form() {
  const body = new FormData();
  body.append('documentType', 'diploma');
  body.append('file', new File(['%PDF-1.7'], 'diploma.pdf', { type: 'application/pdf' }));
  return body;
}

beforeEach(() => {
  FakeXhr.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  setNavigator(vi.fn());
  logInAs(1); // jwt access-1, refresh token refresh-1
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('uploadFile', () => {
  it('POSTs the form to the API base URL with the Accept header and the bearer token, and parses the answer', async () => {
    const body = form();
    const result = uploadFile<{ id: number }>(PATH, body);
    const xhr = await sent(0);
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe(apiUrl(PATH));
    expect(xhr.headers).toEqual({ accept: ACCEPT_HEADER, authorization: 'Bearer access-1' });
    expect(xhr.body).toBe(body);
    xhr.respond(201, JSON.stringify({ id: 7, name: 'diploma.pdf' }));
    await expect(result).resolves.toEqual({ id: 7, name: 'diploma.pdf' });
  });

  it('reports the bytes sent as they go', async () => {
    const onProgress = vi.fn();
    const result = uploadFile(PATH, form(), { onProgress });
    const xhr = await sent(0);
    xhr.progress(10, 40);
    xhr.progress(40, 40);
    xhr.respond(201, '{}');
    await result;
    expect(onProgress.mock.calls).toEqual([
      [10, 40],
      [40, 40],
    ]);
  });

  it('cancels through the signal: the request is aborted and the promise rejects with an AbortError', async () => {
    const controller = new AbortController();
    const result = uploadFile(PATH, form(), { signal: controller.signal });
    const xhr = await sent(0);
    controller.abort();
    const error = await result.catch((e: unknown) => e);
    expect(xhr.aborted).toBe(true);
    expect(isAbort(error)).toBe(true);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(uploadFile(PATH, form(), { signal: controller.signal })).rejects.toSatisfy(isAbort);
    expect(FakeXhr.sent).toHaveLength(0);
  });

  it("fails with the server's errorMessage and errorFields", async () => {
    const result = uploadFile(PATH, form());
    (await sent(0)).respond(
      422,
      JSON.stringify({
        errorMessage: 'validation error',
        errorFields: [{ field: 'file', message: 'The file is empty.' }],
      }),
    );
    const error = (await result.catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(422);
    expect(error.errorFields).toEqual([{ field: 'file', message: 'The file is empty.' }]);
  });

  it("says the contract's words for a 413 even when a proxy answers with an HTML page", async () => {
    const result = uploadFile(PATH, form());
    (await sent(0)).respond(413, '<html><body>413 Request Entity Too Large</body></html>');
    await expect(result).rejects.toMatchObject({
      status: 413,
      errorMessage: 'The file is larger than 20 MB. Choose a smaller file, or take the photo at a lower resolution.',
    });
  });

  it('keeps Retry-After of a 503', async () => {
    const result = uploadFile(PATH, form());
    (await sent(0)).respond(503, JSON.stringify({ errorMessage: 'Too many uploads at once.' }), { 'Retry-After': '5' });
    await expect(result).rejects.toMatchObject({ status: 503, retryAfter: '5' });
  });

  it('refreshes the credential once on a 401 and sends the form again with the new token', async () => {
    server.use(http.post('/oauth/access_token', () => HttpResponse.json(tokenResponse('access-2', 'refresh-2'))));
    const body = form();
    const result = uploadFile<{ id: number }>(PATH, body);
    (await sent(0)).respond(401, JSON.stringify({ errorMessage: 'Unauthorized' }));
    const replay = await sent(1);
    expect(replay.headers.authorization).toBe('Bearer access-2');
    expect(replay.body).toBe(body);
    replay.respond(201, JSON.stringify({ id: 8 }));
    await expect(result).resolves.toEqual({ id: 8 });
    expect(session.get().credentials.jwt).toBe('access-2');
  });

  it('gives up after one replay: a second 401 logs out', async () => {
    server.use(http.post('/oauth/access_token', () => HttpResponse.json(tokenResponse('access-2', 'refresh-2'))));
    const result = uploadFile(PATH, form());
    (await sent(0)).respond(401, '{}');
    (await sent(1)).respond(401, '{}');
    await expect(result).rejects.toMatchObject({ status: 401 });
    expect(FakeXhr.sent).toHaveLength(2);
    expect(session.get().loggedIn).toBe(false);
  });

  it('fails like fetch on a network error, so the message says the connection failed', async () => {
    const result = uploadFile(PATH, form());
    (await sent(0)).onerror?.();
    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(errorMessageOf(error)).toBe(errorMessageOf(new TypeError('x')));
  });
});

describe('uploadQueue', () => {
  /** A task that stays running until its resolve is called. */
  function task() {
    let resolve!: (value: string) => void;
    const promise = new Promise<string>((r) => (resolve = r));
    return { start: vi.fn(() => promise), resolve };
  }

  it('sends at most three at a time, then the next in order as each ends', async () => {
    const queue = uploadQueue(3);
    const tasks = [task(), task(), task(), task(), task()];
    const results = tasks.map((t) => queue(t.start));
    expect(tasks.map((t) => t.start.mock.calls.length)).toEqual([1, 1, 1, 0, 0]);
    tasks[1].resolve('b');
    await expect(results[1]).resolves.toBe('b');
    expect(tasks.map((t) => t.start.mock.calls.length)).toEqual([1, 1, 1, 1, 0]);
    tasks[0].resolve('a');
    await results[0];
    expect(tasks[4].start).toHaveBeenCalledTimes(1);
  });

  it('an upload cancelled while it waits never starts, and frees its place in the line', async () => {
    const queue = uploadQueue(1);
    const first = task();
    const second = task();
    const third = task();
    const controller = new AbortController();
    const running = queue(first.start);
    const cancelled = queue(second.start, controller.signal);
    const after = queue(third.start);
    controller.abort();
    await expect(cancelled).rejects.toSatisfy(isAbort);
    first.resolve('done');
    await running;
    await Promise.resolve();
    expect(second.start).not.toHaveBeenCalled();
    expect(third.start).toHaveBeenCalledTimes(1);
    third.resolve('third');
    await expect(after).resolves.toBe('third');
  });
});
