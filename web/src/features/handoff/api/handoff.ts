// Continue on another device (docs/api.md, "POST /api/v2/user/handoff"): where a link can be sent, making
// one (shown as a QR code, e-mailed or texted), and redeeming one on the other device.
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api, clientCredentials, TOKEN_ENDPOINT } from '@/lib/api-client';
import { startSession } from '@/lib/auth';
import { resetSession, session } from '@/lib/session';
import type { TokenResponse } from '@/types/api';

const HANDOFF = 'api/v2/user/handoff';

export type HandoffChannels = {
  email: string;
  /** The last four digits of the mobile number a text can go to; null without one. */
  phone: string | null;
  expiresInSeconds: number;
};

export type HandoffSend = 'email' | 'sms' | null;

export type Handoff = {
  url: string;
  expiresAt: string;
  /** The address, or the phone number's last digits; null when the link was only shown. */
  sentTo: string | null;
};

export const handoffChannelsQuery = () =>
  queryOptions({
    queryKey: ['handoff', 'channels'],
    queryFn: () => api.get<HandoffChannels>(HANDOFF),
    staleTime: 60_000,
  });

export function useHandoffChannels(enabled: boolean) {
  return useQuery({ ...handoffChannelsQuery(), enabled });
}

export function createHandoff(path: string, send: HandoffSend) {
  return api.post<Handoff>(HANDOFF, { path, send });
}

export function useCreateHandoff() {
  return useMutation({
    mutationFn: ({ path, send }: { path: string; send: HandoffSend }) => createHandoff(path, send),
  });
}

type HandoffTokenResponse = TokenResponse & { path: string };

/**
 * The handoff grant: a new login for the link's applicant, stored as a password login stores one, and
 * the page to open. Whoever was signed in on this device before is replaced, but only once the link
 * has worked: a refused link leaves their session as it was.
 */
export async function redeemHandoff(token: string): Promise<string> {
  const answer = await api.post<HandoffTokenResponse>(TOKEN_ENDPOINT, {
    grant_type: 'handoff',
    handoff_token: token,
    ...clientCredentials(),
  });
  if (session.get().credentials.jwt) resetSession();
  await startSession(answer);
  return answer.path;
}
