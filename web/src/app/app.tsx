// The router app: every route of the spec (app/router.tsx). It loads lazily (app/boot.tsx): at start
// on any first page but /login, or when the login shell hands over.
import type { ReactElement } from 'react';
import { RouterProvider } from 'react-router';
import { setNavigator } from '@/lib/navigation';
import { OpenedFromLoginShell } from './layouts/root-layout';
import { createAppRouter } from './router';

export type RouterApp = {
  element: ReactElement;
  /** Settles once the router's first page is loaded (its guards and loaders done). */
  firstPageLoaded: Promise<void>;
  /** Stops the router listening to the window's history (tests). */
  stop: () => void;
};

/**
 * Starts the router at the address the window has now, or, when the login shell hands over, at /login
 * navigating at once to `to`: the address bar then changes once, to where the guards and loaders
 * send the applicant (a login's "/" becomes their status's page), as a navigation of the router
 * does, and Back returns to /login. `to` also makes the first page a page change
 * (app/layouts/root-layout.tsx).
 */
export function startRouterApp(to?: string): RouterApp {
  const router = createAppRouter();
  if (to !== undefined) void router.navigate(to);
  setNavigator((to) => void router.navigate(to));
  const firstPageLoaded = new Promise<void>((resolve) => {
    if (router.state.initialized) return resolve();
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
  return {
    element: (
      <OpenedFromLoginShell value={to !== undefined}>
        <RouterProvider router={router} />
      </OpenedFromLoginShell>
    ),
    firstPageLoaded,
    stop: () => router.dispose(),
  };
}
