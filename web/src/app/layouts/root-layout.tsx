// Around every page: the loading bar, the document title, the focus and announcement of a page
// change and, with a session, its clock.
import { lazy, Suspense, useEffect } from 'react';
import { Outlet, useMatches, useNavigation } from 'react-router';
import { ProgressBar } from '@/components/progress-bar/progress-bar';
import { usePageChangeFocus } from '@/lib/focus-title';
import { t } from '@/lib/i18n';
import { usePageTitleOverride } from '@/lib/page-title';
import { useSession } from '@/lib/session';

// The warning before the session ends: loaded once there is a session, not with /login.
const SessionTimeout = lazy(() => import('@/components/session-timeout/session-timeout'));

export type RouteHandle = {
  title?: string;
};

export function useDocumentTitle() {
  const matches = useMatches();
  const route = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.title)?.handle as
    RouteHandle | undefined;
  // A page's own title (a setup step, a printed document: lib/page-title.ts) before its route's.
  const title = usePageTitleOverride() ?? route?.title;
  useEffect(() => {
    const app = t('common.appTitle');
    document.title = title ? `${title} | ${app}` : app;
  }, [title]);
  // What a page change announces: the page's own title, without the portal's name each time.
  return title ?? t('common.appTitle');
}

export function RootLayout() {
  const navigation = useNavigation();
  const title = useDocumentTitle();
  const announcement = usePageChangeFocus(title);
  const hasSession = useSession((s) => s.credentials.jwt !== null && s.tokenExpiration !== null);
  return (
    <>
      <ProgressBar navigating={navigation.state !== 'idle'} />
      {hasSession ? (
        <Suspense fallback={null}>
          <SessionTimeout />
        </Suspense>
      ) : null}
      <Outlet />
      {/* A live region of its own, not role="status": the pages' own statuses stay the one status. */}
      <p id="page-announcement" className="visually-hidden" aria-live="polite" aria-atomic="true">
        {announcement}
      </p>
    </>
  );
}
