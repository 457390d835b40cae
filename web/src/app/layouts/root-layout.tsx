// Around every page: the loading bar, the document title, the focus and announcement of a page
// change and, with a session, its clock.
import { createContext, lazy, Suspense, useContext, useEffect } from 'react';
import { Outlet, useLocation, useMatches, useNavigation } from 'react-router';
import { ProgressBar } from '@/components/progress-bar/progress-bar';
import { usePageChangeFocus } from '@/lib/focus-title';
import { t } from '@/lib/i18n';
import { documentTitle, usePageTitleOverride } from '@/lib/page-title';
import { useSession } from '@/lib/session';
import { PageAnnouncement } from './page-announcement';

// The warning before the session ends: loaded once there is a session, not with /login.
const SessionTimeout = lazy(() => import('@/components/session-timeout/session-timeout'));

export type RouteHandle = {
  title?: string;
};

/**
 * True in the router app that a login in the login shell opened (app/boot.tsx): its first page is, for
 * the applicant, a page change from /login, with the focus and announcement of one.
 */
export const OpenedFromLoginShell = createContext(false);

export function useDocumentTitle() {
  const matches = useMatches();
  const route = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.title)?.handle as
    RouteHandle | undefined;
  // A page's own title (a setup step, a printed document: lib/page-title.ts) before its route's.
  const title = usePageTitleOverride() ?? route?.title;
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
  // What a page change announces: the page's own title, without the portal's name each time.
  return title ?? t('common.appTitle');
}

export function RootLayout() {
  const navigation = useNavigation();
  const title = useDocumentTitle();
  const { pathname } = useLocation();
  const announcement = usePageChangeFocus(title, pathname, useContext(OpenedFromLoginShell));
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
      <PageAnnouncement text={announcement} />
    </>
  );
}
