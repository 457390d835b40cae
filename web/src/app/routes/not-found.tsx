import { ErrorPage } from '@/components/error-page/error-page';

/** Any path the route table does not have; the server answers it with 404 too. */
export function NotFoundRoute() {
  return <ErrorPage status={404} />;
}
