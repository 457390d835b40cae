// Renders the real app (routes, guards, layouts) at a URL in memory.
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProvider } from '@/app/provider';
import { routes } from '@/app/router';
import { setNavigator } from '@/lib/navigation';
import { session, type SessionState } from '@/lib/session';
import { statusFromId } from '@/lib/subject-status';
import type { UserPayload } from '@/types/api';
import { companySettings, userPayload } from './fixtures';

export function createTestRouter(url: string) {
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  setNavigator((to) => void router.navigate(to));
  return router;
}

export function renderApp(url: string) {
  const router = createTestRouter(url);
  const user = userEvent.setup();
  const view = render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, router, user };
}

/** A logged-in session as a password login leaves it. */
export function logInAs(statusId: number, options: { payload?: UserPayload; settings?: SessionState['companySettings'] } = {}) {
  const payload = options.payload ?? userPayload(statusId);
  session.set({
    loggedIn: true,
    authUser: payload.subject,
    company: payload.company,
    profile: payload.profile,
    companyPackage: payload.package,
    packageServices: payload.packageServices,
    companySettings: options.settings ?? companySettings(),
    credentials: {
      jwt: 'access-1',
      refreshToken: 'refresh-1',
      client_id: 'portal-spa',
      client_secret: 'portal-spa-secret',
      created_at: Date.now(),
      expires_in: 3600,
    },
  });
  return statusFromId(statusId);
}

/** Resolves when the router has run every loader and redirect of the current navigation. */
export function settled(router: ReturnType<typeof createMemoryRouter>): Promise<void> {
  const isIdle = () => router.state.initialized && router.state.navigation.state === 'idle';
  if (isIdle()) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = router.subscribe(() => {
      if (isIdle()) {
        unsubscribe();
        resolve();
      }
    });
  });
}
