import { api } from '@/lib/api-client';
import type { MessageResponse } from '@/types/api';

export type LinkKind = 'invitation' | 'reset';
export type LinkState = 'valid' | 'expired' | 'used' | 'unknown';

/** GET /api/v2/links/status: what happened to the link (its holder may know). */
export async function getLinkState(kind: LinkKind, token: string): Promise<LinkState> {
  const answer = await api.get<{ state: LinkState }>('api/v2/links/status', { query: { kind, token } });
  return answer.state;
}

/** POST /api/v2/links/renew: always 202; the mail goes to the address on file. */
export function renewLink(input: { kind: LinkKind; token?: string; email?: string }) {
  return api.post<MessageResponse>('api/v2/links/renew', input);
}
