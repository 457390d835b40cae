// Renders the real app (routes, guards, layouts) at a URL in memory.
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProvider } from '@/app/provider';
import { routes } from '@/app/router';
import { setNavigator } from '@/lib/navigation';
import { companySettingsQuery, setCurrentUser } from '@/lib/current-user';
import { queryClient } from '@/lib/query-client';
import { session } from '@/lib/session';
import { statusFromId } from '@/lib/subject-status';
import type { CompanySettings, UserPayload } from '@/types/api';
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

/** A logged-in session as a password login leaves it: the credentials in the session, the user and settings in the query cache. */
export function logInAs(statusId: number, options: { payload?: UserPayload; settings?: CompanySettings | null } = {}) {
  const payload = options.payload ?? userPayload(statusId);
  setCurrentUser(payload);
  queryClient.setQueryData(
    companySettingsQuery(payload.company.id).queryKey,
    options.settings === undefined ? companySettings() : options.settings,
  );
  session.set({
    loggedIn: true,
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
