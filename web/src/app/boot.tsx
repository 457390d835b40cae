// The start of the app (main.tsx): the login shell on /login's first load, else the router app
// (app/first-page.ts), and the shell's hand-over to the router app when the visitor leaves /login.
import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { setUserCacheLoader } from '@/lib/auth';
import { installChunkReload } from '@/lib/chunk-reload';
import { loadCatalogue } from '@/lib/i18n';
import { chooseLocale, setLocaleCookie } from '@/lib/locale';
import { setNavigator } from '@/lib/navigation';
import { session } from '@/lib/session';
import { firstApp } from './first-page';
import { LoginShell } from './login-shell';
import { AppProvider } from './provider';
// Last, after the modules' own style sheets, as the cascade has always had it.
import '@/styles/global.css';

// React Router, the route table, the guards and layouts: never part of /login's first load.
const loadRouterApp = () => import('./app');

/** Where boot renders: the root's render (main.tsx), or a test's. */
export type Render = (children: ReactNode) => void;

/**
 * Renders the first page. The snackbar host (AppProvider) stays mounted across the hand-over, so a
 * login's "Successfully logged in" outlives the login shell. Returns what stops the router app it
 * started (for tests).
 */
export function boot(render: Render, location: Location = window.location): { stop: () => void } {
  const show = (page: ReactNode) =>
    render(
      <StrictMode>
        <AppProvider>{page}</AppProvider>
      </StrictMode>,
    );
  let stopRouter = () => {};
  /** The router app navigating from the login page to `to`, or at the address the window has. */
  const startRouter = async (to?: string) => {
    const { startRouterApp } = await loadRouterApp();
    const app = startRouterApp(to);
    stopRouter = app.stop;
    return app;
  };

  if (firstApp(location.pathname, session.get().loggedIn) === 'router') {
    void startRouter().then((app) => show(app.element));
    return { stop: () => stopRouter() };
  }

  let opening = false;
  const showShell = () => show(<LoginShell navigate={(to) => void open(to)} opening={opening} />);
  // The login page stays, under the loading bar, until the next page's guards and loaders are done, as
  // a navigation of the router keeps the page it leaves.
  async function open(to: string) {
    if (opening) return;
    opening = true;
    showShell();
    try {
      const app = await startRouter(to);
      await app.firstPageLoaded;
      show(app.element);
    } catch {
      // The router app's code did not load (a new deployment, the network): the page itself, loaded afresh.
      window.location.assign(to);
    }
  }
  // A forced logout (lib/api-client.ts) on the login page stays on it; any other page opens the router app.
  setNavigator((to) => {
    if (firstApp(new URL(to, location.href).pathname, false) !== 'login-shell') void open(to);
  });
  showShell();
  return { stop: () => stopRouter() };
}

/** The app's start (main.tsx): the language, then the first page in #root. */
export function start() {
  setLocaleCookie(chooseLocale());
  installChunkReload();
  // Loaded lazily, with a login or a guarded page: TanStack Query stays off /login's first load.
  setUserCacheLoader(() => import('@/lib/current-user'));
  // The chosen language's catalogue first (nothing to wait for in en-US), so no page shows in two languages.
  void loadCatalogue().finally(() => {
    const root = createRoot(document.getElementById('root') as HTMLElement);
    boot((children) => root.render(children));
  });
}
