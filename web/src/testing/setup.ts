import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { setUserCacheLoader } from '@/lib/auth';
import { clearSnacks } from '@/lib/notifications';
import { resetSession } from '@/lib/session';
import { server } from './server';

// jsdom lacks what Radix's popper and pointer handling use.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
Element.prototype.scrollIntoView ??= function scrollIntoView() {};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => {};
Element.prototype.setPointerCapture ??= () => {};

// What main.tsx does at start: the login functions (lib/auth.ts) load the query cache of the user.
setUserCacheLoader(() => import('@/lib/current-user'));

// findBy/waitFor give up after 1 s by default: too short when two cores run
// the whole suite beside the Go tests. The first render of a file loads its
// lazy routes, which took over 5 s once in CI (home.test.tsx); the tests'
// own limit is 15 s (vite.config.ts).
configure({ asyncUtilTimeout: 10000 });

// A request without a handler fails the test that made it. MSW's 'error'
// strategy alone only logs and answers a network error, which code that
// catches errors (guards, optional settings) swallows; collecting the
// requests and checking after each test makes a missing handler a failure.
const unhandledRequests: string[] = [];
beforeAll(() =>
  server.listen({
    onUnhandledRequest(request, print) {
      unhandledRequests.push(`${request.method} ${request.url}`);
      // Logs it and answers a network error instead of reaching the network.
      print.error();
    },
  }),
);
afterEach(() => {
  cleanup();
  server.resetHandlers();
  resetSession();
  clearSnacks();
  const unhandled = unhandledRequests.splice(0);
  expect(unhandled, 'requests without a mock handler (add one to src/testing/server.ts or the test)').toEqual([]);
});
afterAll(() => server.close());

// Test files share their worker's document (isolate: false in vite.config.ts): each starts with
// an empty page, storage and address, as in a new tab.
beforeAll(() => {
  document.body.innerHTML = '';
  document.title = '';
  localStorage.clear();
  sessionStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0].trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
  window.history.replaceState(null, '', '/');
});
