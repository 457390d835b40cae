// The error boundary of every layout: a failed guard, loader or render shows
// the error page (status 500 unless the error says otherwise); a chunk that
// failed to load reloads the page instead, at most once per 60 s.
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorPage } from '@/components/error-page/error-page';
import { ApiError } from '@/lib/api-client';
import { isChunkLoadError, reloadForChunkError } from '@/lib/chunk-reload';
import { t } from '@/lib/i18n';

export const FALLBACK_ERROR_STATUS = 500;
export const FALLBACK_ERROR_MESSAGE = t('errors.unexpected');

export function describeRouteError(error: unknown): { status: number; message: string } {
  if (error instanceof ApiError) return { status: error.status, message: error.errorMessage };
  if (isRouteErrorResponse(error)) {
    const data = error.data as { errorMessage?: string } | string | undefined;
    const message = typeof data === 'object' && data?.errorMessage ? data.errorMessage : error.statusText;
    return { status: error.status, message: message || FALLBACK_ERROR_MESSAGE };
  }
  return { status: FALLBACK_ERROR_STATUS, message: FALLBACK_ERROR_MESSAGE };
}

export function RouteErrorBoundary() {
  const error = useRouteError();
  if (isChunkLoadError(error) && reloadForChunkError()) return null;
  const { status, message } = describeRouteError(error);
  return <ErrorPage status={status} message={message} />;
}
