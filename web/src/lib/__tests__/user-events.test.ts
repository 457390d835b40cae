import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { logInAs } from '@/testing/render-app';
import { userEventStream, server } from '@/testing/server';
import { tokenResponse } from '@/testing/fixtures';
import { backoff, MAX_RETRY_MS, retryAfterMs, runUserEvents } from '../user-events';
import type { ServerSentEvent } from '../sse';

const EVENTS = '/api/v2/user/events';

/** A stream that ends at once: the runner reconnects after its retry. */
function endingStream(body: string) {
  return new HttpResponse(body, { headers: { 'Content-Type': 'text/event-stream' } });
}

function start() {
  const controller = new AbortController();
  const events: ServerSentEvent[] = [];
  const connected: boolean[] = [];
  const done = runUserEvents({
    signal: controller.signal,
    onEvent: (e) => events.push(e),
    onConnectedChange: (c) => connected.push(c),
  });
  return { controller, events, connected, done };
}

afterEach(() => vi.restoreAllMocks());

describe('the applicant event stream', () => {
  it('sends the bearer token, hands over each event, and reconnects after the server’s retry when the stream ends', async () => {
    logInAs(2);
    const auth: (string | null)[] = [];
    server.use(
      http.get(EVENTS, ({ request }) => {
        auth.push(request.headers.get('Authorization'));
        return auth.length < 3
          ? endingStream(`retry: 5\nevent: chat\ndata: {"kind": "message", "messageId": ${auth.length}}\n\n`)
          : userEventStream();
      }),
    );
    const run = start();
    await vi.waitFor(() => expect(auth).toHaveLength(3));
    expect(auth).toEqual(['Bearer access-1', 'Bearer access-1', 'Bearer access-1']);
    await vi.waitFor(() => expect(run.events.map((e) => e.event)).toEqual(['chat', 'chat', 'ready']));
    expect(run.events[1].data).toBe('{"kind": "message", "messageId": 2}');
    expect(run.connected).toEqual([true, false, true, false, true]);
    run.controller.abort();
    await run.done;
  });

  it('stops for good on 403', async () => {
    logInAs(2);
    let calls = 0;
    server.use(
      http.get(EVENTS, () => {
        calls++;
        return HttpResponse.json({ errorMessage: 'Access Denied' }, { status: 403 });
      }),
    );
    const run = start();
    await run.done;
    expect(calls).toBe(1);
  });

  it('on 401 refreshes the token through the api client, then reconnects with the new one', async () => {
    logInAs(2);
    const auth: (string | null)[] = [];
    server.use(
      http.get(EVENTS, ({ request }) => {
        auth.push(request.headers.get('Authorization'));
        return auth.length === 1
          ? HttpResponse.json({ errorMessage: 'Unauthorized' }, { status: 401 })
          : userEventStream('retry: 5\n\n');
      }),
      http.get('/api/v2/banner/active', ({ request }) =>
        request.headers.get('Authorization') === 'Bearer access-2'
          ? HttpResponse.json({ payload: { banner: null } })
          : HttpResponse.json({ errorMessage: 'Unauthorized' }, { status: 401 }),
      ),
      http.post('/oauth/access_token', () => HttpResponse.json(tokenResponse('access-2', 'refresh-2'))),
    );
    vi.useFakeTimers({ toFake: ['setTimeout'], shouldAdvanceTime: true });
    const run = start();
    await vi.waitFor(() => expect(auth).toHaveLength(1));
    await vi.advanceTimersByTimeAsync(3000);
    vi.useRealTimers();
    await vi.waitFor(() => expect(auth).toEqual(['Bearer access-1', 'Bearer access-2']));
    run.controller.abort();
    await run.done;
  });

  it('after a 503 (the database restarting) comes back at its Retry-After, not after a growing pause', async () => {
    logInAs(2);
    let calls = 0;
    server.use(
      http.get(EVENTS, () => {
        calls++;
        return calls <= 4
          ? HttpResponse.json(
              { errorMessage: 'The service is briefly unavailable.' },
              { status: 503, headers: { 'Retry-After': '1' } },
            )
          : userEventStream();
      }),
    );
    vi.useFakeTimers({ toFake: ['setTimeout'], shouldAdvanceTime: true });
    const run = start();
    for (let n = 1; n <= 4; n++) {
      await vi.waitFor(() => expect(calls).toBe(n));
      await vi.advanceTimersByTimeAsync(1000);
    }
    vi.useRealTimers();
    await vi.waitFor(() => expect(run.events.map((e) => e.event)).toEqual(['ready']));
    expect(calls).toBe(5);
    run.controller.abort();
    await run.done;
  });

  it('reads a Retry-After of seconds, capped at 30 s', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs('3600')).toBe(MAX_RETRY_MS);
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT')).toBeNull();
  });

  it('backs off from the server’s retry, doubling up to 30 s', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoff(3000, n))).toEqual([3000, 6000, 12000, 24000, 30000, 30000]);
    expect(backoff(100000, 1)).toBe(MAX_RETRY_MS);
  });
});
