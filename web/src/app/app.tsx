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
 * Starts the router at the address the window has now. `fromLoginShell`: a login in the login shell
 * opens it, so its first page is a page change (app/layouts/root-layout.tsx).
 */
export function startRouterApp(fromLoginShell: boolean): RouterApp {
  const router = createAppRouter();
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
      <OpenedFromLoginShell value={fromLoginShell}>
        <RouterProvider router={router} />
      </OpenedFromLoginShell>
    ),
    firstPageLoaded,
    stop: () => router.dispose(),
  };
}
