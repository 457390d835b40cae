// Around every page: the loading bar, the document title, and the focus and announcement of a page change.
import { useEffect } from 'react';
import { Outlet, useMatches, useNavigation } from 'react-router';
import { ProgressBar } from '@/components/progress-bar/progress-bar';
import { usePageChangeFocus } from '@/lib/focus-title';

export const APP_TITLE = 'Applicant Portal';

export type RouteHandle = {
  title?: string;
};

export function useDocumentTitle() {
  const matches = useMatches();
  const title = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.title)?.handle as
    RouteHandle | undefined;
  useEffect(() => {
    document.title = title?.title ? `${title.title} | ${APP_TITLE}` : APP_TITLE;
  }, [title]);
  // What a page change announces: the page's own title, without the portal's name each time.
  return title?.title ?? APP_TITLE;
}

export function RootLayout() {
  const navigation = useNavigation();
  const title = useDocumentTitle();
  const announcement = usePageChangeFocus(title);
  return (
    <>
      <ProgressBar navigating={navigation.state !== 'idle'} />
      <Outlet />
      {/* A live region of its own, not role="status": the pages' own statuses stay the one status. */}
      <p id="page-announcement" className="visually-hidden" aria-live="polite" aria-atomic="true">
        {announcement}
      </p>
    </>
  );
}
