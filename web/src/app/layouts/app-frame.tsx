// What the default and public layouts share: the top bar (with the user menu
// and the maintenance banner when logged in, the brands alone before), the data pages' navigation after setup, the page, and
// the footer with the support contact. The logged-in parts (menus, chat) load
// lazily, so the login page carries neither them nor the query client.
import { lazy, Suspense, type ReactNode } from 'react';
import { SiteFooter } from '@/components/site-footer/site-footer';
import { t } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import styles from './layout.module.css';

const LoggedInChrome = lazy(() => import('./logged-in-chrome'));
const LoggedInNav = lazy(() => import('./logged-in-nav'));

/**
 * `loggedOutHeader`: the top bar before login, which each layout knows best how to fill. `children`: the
 * page (the router's outlet, or the login shell's page on /login's first load). `routed`: false in the
 * login shell, which keeps the logged-out top bar after a login (the logged-in one's links need the
 * router) until the router app replaces it.
 */
export function AppFrame({
  chat,
  loggedOutHeader,
  children,
  routed = true,
}: {
  chat: boolean;
  loggedOutHeader: ReactNode;
  children: ReactNode;
  routed?: boolean;
}) {
  const loggedIn = useSession((s) => s.loggedIn) && routed;
  return (
    <div className={styles.frame}>
      <a className={styles.skipLink} href="#main">
        {t('layout.skipLink')}
      </a>
      {loggedIn ? (
        // The brands hold the top bar's place while the menu's code loads, so the page does not jump.
        <Suspense fallback={loggedOutHeader}>
          <LoggedInChrome chat={chat} />
        </Suspense>
      ) : (
        loggedOutHeader
      )}
      <div className={styles.body}>
        {loggedIn ? (
          <Suspense fallback={null}>
            <LoggedInNav />
          </Suspense>
        ) : null}
        <main id="main" className={styles.main} tabIndex={-1}>
          {children}
        </main>
      </div>
      <SiteFooter />
    </div>
  );
}
