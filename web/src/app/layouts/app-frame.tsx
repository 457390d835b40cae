// What the default and public layouts share: the top bar and the maintenance
// banner when logged in, the data pages' navigation after setup, the page, and
// the footer with the support contact. The logged-in parts load lazily, so the
// login page carries neither the menus nor the query client.
import { lazy, Suspense, useEffect } from 'react';
import { Outlet } from 'react-router';
import { SiteFooter } from '@/components/site-footer/site-footer';
import { t } from '@/lib/i18n';
import { MAIN_MENU_CHAT_SELECTED } from '@/lib/app-events';
import { notify } from '@/lib/notifications';
import { useSession } from '@/lib/session';
import styles from './layout.module.css';

const LoggedInChrome = lazy(() => import('./logged-in-chrome'));
const LoggedInNav = lazy(() => import('./logged-in-nav'));

/** Until the chat issue lands, choosing Chat with Support says so instead of doing nothing. */
function ChatWidgetSlot() {
  useEffect(() => {
    const onChat = () => notify('Chat with Support is coming soon.', 'info');
    window.addEventListener(MAIN_MENU_CHAT_SELECTED, onChat);
    return () => window.removeEventListener(MAIN_MENU_CHAT_SELECTED, onChat);
  }, []);
  return null;
}

export function AppFrame({ chat }: { chat: boolean }) {
  const loggedIn = useSession((s) => s.loggedIn);
  return (
    <div className={styles.frame}>
      <a className={styles.skipLink} href="#main">
        {t('layout.skipLink')}
      </a>
      {loggedIn ? (
        <Suspense fallback={null}>
          <LoggedInChrome />
        </Suspense>
      ) : null}
      <div className={styles.body}>
        {loggedIn ? (
          <Suspense fallback={null}>
            <LoggedInNav />
          </Suspense>
        ) : null}
        <main id="main" className={styles.main} tabIndex={-1}>
          <Outlet />
        </main>
      </div>
      <SiteFooter />
      {chat && loggedIn ? <ChatWidgetSlot /> : null}
    </div>
  );
}
