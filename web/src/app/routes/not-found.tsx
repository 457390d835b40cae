import { useLocation } from 'react-router';
import { ErrorPage } from '@/components/error-page/error-page';

export function NotFoundRoute() {
  const { pathname } = useLocation();
  return <ErrorPage status={404} message={`Path ${pathname} not found`} />;
}
