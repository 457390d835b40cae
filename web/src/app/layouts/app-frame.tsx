// What the default and public layouts share: the top bar and the maintenance
// banner when logged in, and the page. The logged-in parts load lazily, so the
// login page carries neither the menu nor the query client.
import { lazy, Suspense, useEffect } from 'react';
import { Outlet } from 'react-router';
import { MAIN_MENU_CHAT_SELECTED } from '@/lib/app-events';
import { notify } from '@/lib/notifications';
import { useSession } from '@/lib/session';
import styles from './layout.module.css';

const LoggedInChrome = lazy(() => import('./logged-in-chrome'));

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
        Skip to content
      </a>
      {loggedIn ? (
        <Suspense fallback={null}>
          <LoggedInChrome />
        </Suspense>
      ) : null}
      <main id="main" className={styles.main} tabIndex={-1}>
        <Outlet />
      </main>
      {chat && loggedIn ? <ChatWidgetSlot /> : null}
    </div>
  );
}
