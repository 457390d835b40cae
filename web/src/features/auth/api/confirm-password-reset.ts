import { api } from '@/lib/api-client';
import type { MessageResponse } from '@/types/api';

/** POST /api/user/password/reset/confirm with the token of the e-mailed link. */
export function confirmPasswordReset({ token, password }: { token: string; password: string }) {
  return api.post<MessageResponse>('api/user/password/reset/confirm', { token, password });
}
