import { useLocation } from 'react-router';
import { ErrorPage } from '@/components/error-page/error-page';
import { t } from '@/lib/i18n';

export function NotFoundRoute() {
  const { pathname } = useLocation();
  return <ErrorPage status={404} message={t('errors.notFound.path', { path: pathname })} />;
}
