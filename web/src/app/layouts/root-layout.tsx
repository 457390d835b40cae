// Around every page: the loading bar and the document title.
import { useEffect } from 'react';
import { Outlet, useMatches, useNavigation } from 'react-router';
import { ProgressBar } from '@/components/progress-bar/progress-bar';
import { t } from '@/lib/i18n';

export type RouteHandle = {
  title?: string;
};

export function useDocumentTitle() {
  const matches = useMatches();
  const title = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.title)?.handle as
    RouteHandle | undefined;
  useEffect(() => {
    const app = t('common.appTitle');
    document.title = title?.title ? `${title.title} | ${app}` : app;
  }, [title]);
}

export function RootLayout() {
  const navigation = useNavigation();
  useDocumentTitle();
  return (
    <>
      <ProgressBar navigating={navigation.state !== 'idle'} />
      <Outlet />
    </>
  );
}
