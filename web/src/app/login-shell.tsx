// /login on the first page of a visit: the login page in the public layout's frame, without React
// Router or TanStack Query (/login's budget, scripts/check-bundle.mjs). What the router's root and
// public layouts give a page it gives too: the loading bar, the document title, the focus when a
// focused control goes and the live region of page changes. A login, or any other page, opens the
// router app (app/boot.tsx).
import { useEffect } from 'react';
import { ProgressBar } from '@/components/progress-bar/progress-bar';
import { paths } from '@/config/paths';
import { LoginPage } from '@/features/auth/components/login-page';
import { usePageChangeFocus } from '@/lib/focus-title';
import { t } from '@/lib/i18n';
import { documentTitle } from '@/lib/page-title';
import { AppFrame } from './layouts/app-frame';
import { LoggedOutHeader } from './layouts/logged-out-header';
import { PageAnnouncement } from './layouts/page-announcement';

export type LoginShellProps = {
  /** Opens the router app at a path (app/boot.tsx). */
  navigate: (to: string) => void;
  /** True while the router app loads and its first page's guards run: the loading bar shows. */
  opening: boolean;
};

export function LoginShell({ navigate, opening }: LoginShellProps) {
  const title = t('common.route.login');
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
  const announcement = usePageChangeFocus(title, paths.login.path);
  return (
    <>
      <ProgressBar navigating={opening} />
      <AppFrame chat={false} loggedOutHeader={<LoggedOutHeader />} routed={false}>
        {/* React Router keeps a location's state in history.state.usr: /reset's, after a reload of /login. */}
        <LoginPage navigate={navigate} locationState={(window.history.state as { usr?: unknown } | null)?.usr} />
      </AppFrame>
      <PageAnnouncement text={announcement} />
    </>
  );
}
