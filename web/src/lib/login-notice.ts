// A message for the login page that outlives the redirect to it: whatever
// sent the visitor to /login (a used invitation, a setup session that ended)
// says why there. It stays until a login succeeds (a reload forgets it too).
import { useSyncExternalStore } from 'react';

let loginNotice: string | null = null;
const loginNoticeListeners = new Set<() => void>();

export function setLoginNotice(notice: string | null) {
  loginNotice = notice;
  for (const listener of loginNoticeListeners) listener();
}

/** The login page's notice, if something sent the visitor there with a reason. */
export function useLoginNotice(): string | null {
  return useSyncExternalStore(
    (listener) => {
      loginNoticeListeners.add(listener);
      return () => {
        loginNoticeListeners.delete(listener);
      };
    },
    () => loginNotice,
    () => loginNotice,
  );
}
