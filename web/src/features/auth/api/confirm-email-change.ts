import { api } from '@/lib/api-client';
import type { MessageResponse } from '@/types/api';

export const EMAIL_CHANGED_MESSAGE = 'Your e-mail address has been changed.';

/**
 * POST /api/v2/user/email/confirm with the token of the link mailed to the
 * new address. No login needed: the token alone proves the request.
 */
export function confirmEmailChange(token: string) {
  return api.post<MessageResponse>('api/v2/user/email/confirm', { token });
}
