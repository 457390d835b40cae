// Session state (spec section 3), kept in sessionStorage so a reload keeps the
// applicant logged in while a closed tab forgets everything.
// Only what the client itself owns lives here: the credentials, whether the
// applicant is logged in, the invitation token. The user, company, package and
// settings are server state, kept in the query cache (lib/current-user.ts).
import { useSyncExternalStore } from 'react';

export type Credentials = {
  jwt: string | null;
  refreshToken: string | null;
  client_id: string | null;
  client_secret: string | null;
  /** ms since epoch when the access token was issued */
  created_at: number | null;
  /** seconds */
  expires_in: number | null;
};

export type SessionState = {
  loggedIn: boolean;
  isLogoutInitiated: boolean;
  /** ms since epoch */
  tokenExpiration: number | null;
  credentials: Credentials;
  /** The invitation token of a token login: renews the setup credential (lib/api-client.ts). */
  invitationToken: string | null;
};

export const SESSION_STORAGE_KEY = 'portal-session';
/**
 * Where earlier versions kept the personal form's unsaved input. Drafts now live sealed on the server
 * (lib/server-draft.ts); a reset still removes what an older version may have left in this tab.
 */
const LEGACY_PERSONAL_DRAFT_KEY = 'portal-personal-draft';
/**
 * What a reset removes from sessionStorage: the session's own keys only. Other
 * keys outlive a logout on purpose, e.g. the chunk-reload time
 * (lib/chunk-reload.ts) that stops a broken deployment from reloading in a loop.
 */
const SESSION_OWNED_KEYS = [SESSION_STORAGE_KEY, LEGACY_PERSONAL_DRAFT_KEY];

export function initialSessionState(): SessionState {
  return {
    loggedIn: false,
    isLogoutInitiated: false,
    tokenExpiration: null,
    credentials: {
      jwt: null,
      refreshToken: null,
      client_id: null,
      client_secret: null,
      created_at: null,
      expires_in: null,
    },
    invitationToken: null,
  };
}

function load(): SessionState {
  const initial = initialSessionState();
  try {
    const raw = sessionStorage.getItem(SESSION_STORAGE_KEY);
    if (!raw) return initial;
    const stored = JSON.parse(raw) as Partial<SessionState>;
    // Only the known fields: a session stored by an older version may hold more.
    return {
      loggedIn: stored.loggedIn ?? initial.loggedIn,
      isLogoutInitiated: stored.isLogoutInitiated ?? initial.isLogoutInitiated,
      tokenExpiration: stored.tokenExpiration ?? initial.tokenExpiration,
      invitationToken: stored.invitationToken ?? initial.invitationToken,
      credentials: { ...initial.credentials, ...stored.credentials },
    };
  } catch {
    return initial;
  }
}

let state: SessionState = load();
const listeners = new Set<() => void>();
const resetListeners = new Set<() => void>();

function persist() {
  try {
    sessionStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(state));
  } catch {
    // Storage full or disabled: the session still works for this page view.
  }
}

type Update = Partial<SessionState> | ((current: SessionState) => Partial<SessionState>);

export const session = {
  get: (): SessionState => state,
  set(update: Update) {
    const patch = typeof update === 'function' ? update(state) : update;
    state = { ...state, ...patch };
    persist();
    for (const listener of listeners) listener();
  },
  setCredentials(patch: Partial<Credentials>) {
    session.set((s) => ({ credentials: { ...s.credentials, ...patch } }));
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
  /** Called after every reset, e.g. to drop cached server state. */
  onReset(listener: () => void) {
    resetListeners.add(listener);
    return () => {
      resetListeners.delete(listener);
    };
  },
};

/** Removes the session's keys from sessionStorage and puts every piece of state back to its initial value. */
export function resetSession() {
  try {
    for (const key of SESSION_OWNED_KEYS) sessionStorage.removeItem(key);
  } catch {
    // ignore: nothing to clear
  }
  state = initialSessionState();
  for (const listener of listeners) listener();
  for (const listener of resetListeners) listener();
}

/** Subscribes a component to one slice of the session. The selector must return stored values (not new objects). */
export function useSession<T>(selector: (state: SessionState) => T): T {
  return useSyncExternalStore(
    session.subscribe,
    () => selector(state),
    () => selector(state),
  );
}
