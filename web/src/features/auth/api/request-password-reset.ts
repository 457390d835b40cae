import { z } from 'zod/mini';
import { api } from '@/lib/api-client';
import { t } from '@/lib/i18n';
import type { MessageResponse } from '@/types/api';

export const requestPasswordResetSchema = z.object({
  username: z.string().check(z.trim(), z.minLength(1, { error: () => t('auth.login.usernameRequired') })),
});

export type RequestPasswordResetInput = z.infer<typeof requestPasswordResetSchema>;

/** POST /api/user/password/reset: the server answers the same whether or not the username exists. */
export function requestPasswordReset(input: RequestPasswordResetInput) {
  return api.post<MessageResponse>('api/user/password/reset', input);
}
