import '@/features/auth/lib/reset-messages';
import { ApiError, api } from '@/lib/api-client';
import { t } from '@/lib/i18n';

/**
 * What the reset page knows about its link before showing the form; a valid
 * link names its account (holding the link proves access to that mailbox), so
 * the form can check that the password does not contain it. A server that does
 * not say leaves `username` out.
 */
export type ResetLinkCheck = { valid: true; username?: string } | { valid: false; message: string };

/** The message of a refused reset link (errorFields "token"), if the error is one. */
export function resetLinkRefusal(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 422) return null;
  const token = error.errorFields.find((f) => f.field === 'token');
  return token ? token.message || t('reset.page.linkInvalid') : null;
}

/**
 * POST /api/user/password/reset/verify: whether the e-mailed link can still
 * set a password, so a spent link is reported before the form is filled.
 * Any other failure (network, 5xx) is no verdict: the form shows, and the
 * server checks the link again on submit.
 */
export async function verifyResetToken(token: string): Promise<ResetLinkCheck> {
  try {
    const answer = await api.post<{ valid: boolean; username?: unknown }>('api/user/password/reset/verify', { token });
    const username = typeof answer?.username === 'string' ? answer.username.trim() : '';
    return username ? { valid: true, username } : { valid: true };
  } catch (error) {
    const message = resetLinkRefusal(error);
    if (message) return { valid: false, message };
    return { valid: true };
  }
}
