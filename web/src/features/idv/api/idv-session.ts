// The identity-verification session (contract of issue 12): PUT starts one (or answers the
// active one), GET tells how far it got. The id is kept in sessionStorage as well, so the
// return page finds it when the provider sends the applicant back without ?session=.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { config } from '@/lib/config';
import { session } from '@/lib/session';

/** 0 active, 1 completedByUser, 2 checkCompleted, 3 dataCompleted, 4 expired. */
export const IdvStatus = { active: 0, completedByUser: 1, checkCompleted: 2, dataCompleted: 3, expired: 4 } as const;

/** GET /api/v2/idv/session/{id} */
export type IdvSession = {
  id: string;
  env: 'sandbox' | 'production' | string;
  status: number;
  statusText: string;
  decision: 'approved' | 'declined' | null;
  expiresAt: string;
};

/** PUT /api/v2/idv/session: the same, with the token the provider's page needs. */
export type CreatedIdvSession = IdvSession & { token: string };

export function createIdvSession(subjectId: number) {
  return api.put<CreatedIdvSession>('api/v2/idv/session', { subjectId });
}

export const idvSessionQuery = (id: string) =>
  queryOptions({
    queryKey: ['idv-session', id],
    queryFn: () => api.get<IdvSession>(`api/v2/idv/session/${encodeURIComponent(id)}`),
  });

/** Asks every 5 s while the page shows it (a provider may never post a message, a callback may be lost). */
export function usePolledIdvSession(id: string | undefined) {
  return useQuery({ ...idvSessionQuery(id ?? ''), enabled: Boolean(id), refetchInterval: 5000 });
}

/** The provider's page for a session: the configured template with {id} and {token} filled in. */
export function idvFrameUrl(created: Pick<CreatedIdvSession, 'id' | 'token'>, template = config.idvPageUrl): string {
  return template
    .replaceAll('{id}', encodeURIComponent(created.id))
    .replaceAll('{token}', encodeURIComponent(created.token));
}

export const IDV_SESSION_STORAGE_KEY = 'portal.idvSession';

export const storedIdvSession = {
  get(): string | null {
    try {
      return sessionStorage.getItem(IDV_SESSION_STORAGE_KEY);
    } catch {
      return null;
    }
  },
  set(id: string) {
    try {
      sessionStorage.setItem(IDV_SESSION_STORAGE_KEY, id);
    } catch {
      // Storage disabled: ?session= in the return address still carries it.
    }
  },
  clear() {
    try {
      sessionStorage.removeItem(IDV_SESSION_STORAGE_KEY);
    } catch {
      // nothing kept
    }
  },
};

// Another applicant logging in on this tab must not find this one's session.
session.onReset(() => storedIdvSession.clear());

/** /idv/success for a session: where the frame, the poll and the "I have finished" link all go. */
export function idvSuccessHref(id: string): string {
  return `/idv/success?session=${encodeURIComponent(id)}`;
}
