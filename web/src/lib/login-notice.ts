// A message for the login page that outlives the redirect to it: whatever
// sent the visitor to /login (a used invitation, a setup session that ended)
// says why there. It stays until a login succeeds (a reload forgets it too).
import { useSyncExternalStore } from 'react';

let loginNotice: string | null = null;
// The token of an invitation link the server refused (expired, used, unknown): the login page offers a
// new link for it (issue 25) where the spec's token guard sends the visitor.
let refusedInvitation: string | null = null;
const loginNoticeListeners = new Set<() => void>();

/** Sets the notice, and the refused invitation's token (cleared when not given). */
export function setLoginNotice(notice: string | null, invitationToken: string | null = null) {
  loginNotice = notice;
  refusedInvitation = invitationToken;
  for (const listener of loginNoticeListeners) listener();
}

function subscribe(listener: () => void) {
  loginNoticeListeners.add(listener);
  return () => {
    loginNoticeListeners.delete(listener);
  };
}

/** The login page's notice, if something sent the visitor there with a reason. */
export function useLoginNotice(): string | null {
  return useSyncExternalStore(
    subscribe,
    () => loginNotice,
    () => loginNotice,
  );
}

/** The token of the invitation link that sent the visitor to the login page refused, if one did. */
export function useRefusedInvitation(): string | null {
  return useSyncExternalStore(
    subscribe,
    () => refusedInvitation,
    () => refusedInvitation,
  );
}

/** The notice as it is now, for code outside React. */
export function currentLoginNotice(): string | null {
  return loginNotice;
}

// The page a forced logout interrupted: the login page goes back there, where the form's draft
// (lib/server-draft.ts) waits. In sessionStorage, beside but not part of the session, which the
// logout resets; a reload of /login keeps it.
const RETURN_PATH_KEY = 'portal-return-to';

/** Remembers the page to return to after the next login (a path of this app, query included). */
export function setReturnPath(path: string) {
  try {
    sessionStorage.setItem(RETURN_PATH_KEY, path);
  } catch {
    // Storage disabled: the login goes to the home page as usual.
  }
}

/** The page to return to, once: a path of this app, never /login itself or another site (//host). */
export function takeReturnPath(): string | null {
  let path: string | null = null;
  try {
    path = sessionStorage.getItem(RETURN_PATH_KEY);
    sessionStorage.removeItem(RETURN_PATH_KEY);
  } catch {
    return null;
  }
  if (!path || !path.startsWith('/') || path.startsWith('//') || path.startsWith('/login')) return null;
  return path;
}
