// What the login page says when a login fails. The API keeps the spec's
// OAuth wording ("The user credentials were incorrect."); the page says it
// plainly and says what to do next.
import { ApiError, apiCodes, errorMessageOf } from '@/lib/api-client';
import { t } from '@/lib/i18n';

/** Seconds until a retry from a Retry-After header (seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.round((date - now) / 1000));
}

function waitText(seconds: number | null): string {
  if (seconds === null) return t('auth.login.waitFewMinutes');
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes === 1 ? t('auth.login.waitOneMinute') : t('auth.login.waitMinutes', { minutes });
}

export function loginErrorMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return errorMessageOf(error);
  if (error.status === 429) return t('auth.login.throttled', { wait: waitText(retryAfterSeconds(error.retryAfter)) });
  if (error.status === 503) return t('auth.login.busy');
  if (error.errorCode === apiCodes.credentialsIncorrect || error.code === 'invalid_grant') {
    return t('auth.login.credentialsIncorrect');
  }
  return errorMessageOf(error);
}
