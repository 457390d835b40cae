// The applicant's one event stream, GET api/v2/user/events (docs/api.md): the banner's changes and,
// when chat is on, the chat's, on one connection rather than one per feature (browsers keep about six
// per host). Read with fetch (EventSource cannot send the bearer header), reconnecting when the stream
// ends (it does when the access token expires) after the server's `retry`, backing off to 30 s while
// it keeps failing; a 503 (the database restarting) is retried after its Retry-After instead. The
// stream bypasses the api client (a request that never ends would hold the progress bar); its 401
// goes through the client all the same: a read of the banner refreshes the token (or logs out) before
// the next attempt. The logged-in chrome runs it (useUserEventStream); features listen with
// onUserEvent and never import one another. It loads with the chrome, never with /login.
import { useEffect, useSyncExternalStore } from 'react';
import { api, ApiError, apiUrl, ACCEPT_HEADER } from './api-client';
import { session } from './session';
import { createSseParser, type ServerSentEvent } from './sse';

export const USER_EVENTS_PATH = 'api/v2/user/events';
export const DEFAULT_RETRY_MS = 3000;
export const MAX_RETRY_MS = 30000;

export type UserEventsOptions = {
  signal: AbortSignal;
  onEvent: (event: ServerSentEvent) => void;
  /** The stream is open (true) or closed and waiting to reconnect (false). */
  onConnectedChange: (connected: boolean) => void;
};

function wait(ms: number, signal: AbortSignal) {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** The delay before the attempt after `failures` attempts in a row that ended or failed. */
export function backoff(retryMs: number, failures: number) {
  return Math.min(retryMs * 2 ** Math.max(0, failures - 1), MAX_RETRY_MS);
}

/** Milliseconds from a Retry-After of whole seconds; null when absent or another form. */
export function retryAfterMs(value: string | null): number | null {
  return value && /^\d+$/.test(value.trim()) ? Math.min(Number(value.trim()) * 1000, MAX_RETRY_MS) : null;
}

/** Runs until the signal aborts, the server answers 403, or the session ends. */
export async function runUserEvents({ signal, onEvent, onConnectedChange }: UserEventsOptions) {
  let retryMs = DEFAULT_RETRY_MS;
  let failures = 0;
  while (!signal.aborted) {
    let status = 0;
    let retryAfter: number | null = null;
    try {
      const jwt = session.get().credentials.jwt;
      const response = await fetch(apiUrl(USER_EVENTS_PATH), {
        headers: { Accept: `text/event-stream, ${ACCEPT_HEADER}`, ...(jwt ? { Authorization: `Bearer ${jwt}` } : {}) },
        credentials: 'same-origin',
        cache: 'no-store',
        signal,
      });
      status = response.status;
      if (status === 503) retryAfter = retryAfterMs(response.headers.get('Retry-After'));
      if (response.ok && response.body) {
        failures = 0;
        onConnectedChange(true);
        const parser = createSseParser({
          onEvent,
          onRetry: (ms) => {
            retryMs = ms;
          },
        });
        const reader = response.body.getReader();
        // Leaving (logout, unmount) ends the read even where aborting the fetch does not reach the body.
        const stop = () => void reader.cancel().catch(() => undefined);
        signal.addEventListener('abort', stop);
        const decoder = new TextDecoder();
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            parser.push(decoder.decode(value, { stream: true }));
          }
        } finally {
          signal.removeEventListener('abort', stop);
        }
      } else {
        // Not awaited: a cancel may settle only when the body would have (seen with mocked responses).
        response.body?.cancel().catch(() => undefined);
      }
    } catch {
      // The network failed or the stream broke: reconnect like after its end.
    }
    if (signal.aborted) return;
    onConnectedChange(false);
    if (status === 403) return;
    if (status === 401) {
      try {
        // Through the api client: the one shared refresh, or the logout when it fails.
        await api.get('api/v2/banner/active');
      } catch (error) {
        if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return;
      }
      if (!session.get().loggedIn) return;
    }
    failures += 1;
    await wait(retryAfter ?? backoff(retryMs, failures), signal);
  }
}

type Listener = (event: ServerSentEvent) => void;
const listeners = new Set<Listener>();
const connectionListeners = new Set<() => void>();
let connected = false;

function setConnected(value: boolean) {
  connected = value;
  for (const listener of connectionListeners) listener();
}

/** Calls `listener` with each event of the stream (`ready`, `banner`, `chat`, `screening`); returns the unsubscribe. */
export function onUserEvent(listener: Listener) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Whether the stream is open now: while it is not, what it would tell is polled. */
export function useUserEventsConnected() {
  return useSyncExternalStore(
    (listener) => {
      connectionListeners.add(listener);
      return () => connectionListeners.delete(listener);
    },
    () => connected,
  );
}

/** Runs the stream while mounted: once, in the logged-in chrome. */
export function useUserEventStream() {
  useEffect(() => {
    const controller = new AbortController();
    void runUserEvents({
      signal: controller.signal,
      onEvent: (event) => {
        for (const listener of listeners) listener(event);
      },
      onConnectedChange: setConnected,
    });
    return () => {
      controller.abort();
      setConnected(false);
    };
  }, []);
}
