import { api } from '@/lib/api-client';
import { loginWithGrant } from '@/lib/auth';
import type { MessageResponse } from '@/types/api';

export type CodeChannel = 'email' | 'sms';

/** POST /api/v2/login/code: always 202, whether or not the address is known. */
export function requestLoginCode(input: { username: string; channel: CodeChannel }) {
  return api.post<MessageResponse>('api/v2/login/code', input);
}

/** The six digits of a typed code: spaces and hyphens go ("123 456"). */
export function normalizeCode(code: string) {
  return code.replace(/[\s-]/g, '');
}

/** The one_time_code grant, then the user, as a password login. */
export function loginWithCode(input: { username: string; code: string }) {
  return loginWithGrant({ grant_type: 'one_time_code', username: input.username, code: normalizeCode(input.code) });
}
