// The error boundary of every page and layout: a failed guard, loader or
// render shows the error page (status 500 unless the error says otherwise); a
// chunk that failed to load reloads the page instead, at most once per 60 s.
// A page's error shows inside its layout, with the top bar; a layout's own
// error (its code failed to load) brings the brands' top bar itself.
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorPage } from '@/components/error-page/error-page';
import { ApiError } from '@/lib/api-client';
import { isChunkLoadError, reloadForChunkError } from '@/lib/chunk-reload';
import { t } from '@/lib/i18n';
import { LoggedOutHeader } from '../layouts/logged-out-header';
import styles from '../layouts/layout.module.css';

export const FALLBACK_ERROR_STATUS = 500;
/** A function, not a constant: made at import, it would be English before the catalogue loads (lib/i18n.ts). */
export const fallbackErrorMessage = () => t('errors.unexpected');

export function describeRouteError(error: unknown): { status: number; message: string } {
  if (error instanceof ApiError) return { status: error.status, message: error.errorMessage };
  if (isRouteErrorResponse(error)) {
    const data = error.data as { errorMessage?: string } | string | undefined;
    const message = typeof data === 'object' && data?.errorMessage ? data.errorMessage : error.statusText;
    return { status: error.status, message: message || fallbackErrorMessage() };
  }
  return { status: FALLBACK_ERROR_STATUS, message: fallbackErrorMessage() };
}

export function RouteErrorBoundary() {
  const error = useRouteError();
  if (isChunkLoadError(error) && reloadForChunkError()) return null;
  const { status, message } = describeRouteError(error);
  return <ErrorPage status={status} message={message} />;
}

/** For a layout, whose frame did not render: the top bar with the brands around the error page. */
export function FramedRouteErrorBoundary() {
  return (
    <div className={styles.frame}>
      <LoggedOutHeader />
      <main id="main" className={styles.main} tabIndex={-1}>
        <RouteErrorBoundary />
      </main>
    </div>
  );
}
