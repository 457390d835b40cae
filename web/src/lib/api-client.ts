// The one HTTP client of the app (spec sections 4, 7 and 8): base URL from the
// runtime configuration, the Accept header, the bearer token, the in-flight
// counter of the progress bar, and the global rules for 401 and 403.
import type { ErrorBody, ErrorField, TokenLoginPayload, TokenResponse } from '@/types/api';
import { config } from './config';
import { setLoginNotice, setReturnPath } from './login-notice';
import { navigateTo } from './navigation';
import { notify } from './notifications';
import { progress } from './progress';
import { resetSession, session } from './session';
import { t } from './i18n';

export const TOKEN_ENDPOINT = 'oauth/access_token';
export const ACCEPT_HEADER = 'application/json, text/plain, */*';

/** The server's stable codes of the answers the app reacts to (docs/api.md); its texts are in the user's language. */
export const apiCodes = {
  /** Left to the caller (the login form shows it); never handled globally. */
  credentialsIncorrect: 'auth.credentials_incorrect',
} as const;

// Getters: a message made at import would be English before the catalogue loads (lib/i18n.ts).
export const apiMessages = {
  get invalidLogin() {
    return t('errors.session.invalidLogin');
  },
  get accessDenied() {
    return t('errors.accessDenied');
  },
  /** The setup credential expired and the invitation can no longer renew it; the password exists. */
  get setupEndedLogIn() {
    return t('errors.setup.endedLogIn');
  },
  /** The same before a password exists: only a new invitation helps. */
  get setupEndedInvitationGone() {
    return t('errors.setup.endedInvitationGone');
  },
} as const;

/** A non-2xx answer, with the server's error body. */
export class ApiError extends Error {
  readonly status: number;
  readonly errorMessage: string;
  /** The message's stable code ('' when the answer has none), to compare instead of the text. */
  readonly errorCode: string;
  readonly errorFields: ErrorField[];
  /** RFC 6749 error code, on token endpoint errors */
  readonly code: string | undefined;
  readonly retryAfter: string | null;

  constructor(status: number, body: ErrorBody, retryAfter: string | null = null) {
    const text = body.errorMessage || body.message || statusMessage(status);
    super(text);
    this.name = 'ApiError';
    this.status = status;
    this.errorMessage = text;
    this.errorCode = body.errorCode ?? '';
    this.errorFields = body.errorFields ?? [];
    this.code = body.error;
    this.retryAfter = retryAfter;
  }
}

/**
 * The message of an answer without one of its own: a proxy's page while the
 * server restarts (502, 503, 504) or a full disk (507) says what to do, like
 * the server's own 503 and 507; forms show it in place and keep what was typed.
 */
function statusMessage(status: number): string {
  if (status === 502 || status === 503 || status === 504) return t('errors.unavailable');
  if (status === 507) return t('errors.storageFull');
  return t('errors.request.failed', { status });
}

/** The message to show a person for any failure of a request. */
export function errorMessageOf(error: unknown, fallback = t('errors.generic')): string {
  if (error instanceof ApiError) return error.errorMessage;
  if (error instanceof TypeError) return t('errors.network');
  return fallback;
}

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  responseType?: 'json' | 'blob' | 'text';
  signal?: AbortSignal;
  /**
   * A 403 is expected and the caller explains it (token login with a used or
   * expired invitation): no global Access Denied message.
   */
  silentForbidden?: boolean;
  /** Sends the request in place of fetch: uploads use XMLHttpRequest for its progress (lib/upload.ts). */
  transport?: typeof fetch;
};

export function apiUrl(path: string, query?: RequestOptions['query']): string {
  const base = config.apiBaseUrl.replace(/\/+$/, '');
  const url = new URL(`${base}/${path.replace(/^\/+/, '')}`, window.location.href);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
  }
  return url.toString();
}

function isTokenEndpoint(path: string) {
  return path.replace(/^\/+/, '').split('?')[0] === TOKEN_ENDPOINT;
}

function send(path: string, options: RequestOptions, jwt: string | null): Promise<Response> {
  const headers: Record<string, string> = { Accept: ACCEPT_HEADER };
  if (jwt) headers.Authorization = `Bearer ${jwt}`;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData || options.body instanceof Blob) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  return (options.transport ?? fetch)(apiUrl(path, options.query), {
    method: options.method ?? 'GET',
    headers,
    body,
    signal: options.signal,
    credentials: 'same-origin',
  });
}

/**
 * Counts one request for the progress bar from its first attempt to its
 * outcome: a 401 that a refresh and a retry turn into a success is a success.
 */
async function tracked<T>(work: () => Promise<T>): Promise<T> {
  progress.start();
  let failed = true;
  try {
    const result = await work();
    failed = false;
    return result;
  } finally {
    progress.done(failed);
  }
}

async function toApiError(response: Response): Promise<ApiError> {
  let body: ErrorBody = {};
  try {
    const text = await response.text();
    if (text) body = JSON.parse(text) as ErrorBody;
  } catch {
    // not JSON: keep the generic message
  }
  return new ApiError(response.status, body, response.headers.get('Retry-After'));
}

async function parse<T>(response: Response, responseType: RequestOptions['responseType']): Promise<T> {
  if (responseType === 'blob') return (await response.blob()) as T;
  const text = await response.text();
  if (responseType === 'text') return text as T;
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * Logout forced by the client: reset everything and go to /login, with or without a message. The
 * message is the login page's notice (it stays there until a login, not against a snackbar's clock),
 * and the login goes back to the page the applicant was on.
 */
export function forceLogout(message?: string) {
  const { pathname, search } = window.location;
  if (pathname !== '/login') setReturnPath(pathname + search);
  resetSession();
  navigateTo('/login');
  if (message) setLoginNotice(message);
}

export function clientCredentials() {
  const { client_id, client_secret } = session.get().credentials;
  return {
    client_id: client_id ?? config.clientId,
    client_secret: client_secret ?? config.clientSecret,
  };
}

/** Keeps a token answer (password, refresh or token login) in the session. */
export function storeToken(token: Pick<TokenResponse, 'access_token' | 'expires_in' | 'refresh_token'>) {
  const now = Date.now();
  session.set((s) => ({
    credentials: {
      ...s.credentials,
      jwt: token.access_token,
      refreshToken: token.refresh_token ?? null,
      created_at: now,
      expires_in: token.expires_in,
    },
    tokenExpiration: now + token.expires_in * 1000,
  }));
}

// The one refresh in progress; every request that gets a 401 meanwhile waits for it.
let refreshInFlight: Promise<void> | null = null;

async function refresh(refreshToken: string): Promise<void> {
  const response = await send(
    TOKEN_ENDPOINT,
    {
      method: 'POST',
      body: { grant_type: 'refresh_token', refresh_token: refreshToken, ...clientCredentials(), scope: 'default' },
    },
    null,
  );
  if (!response.ok) {
    const error = await toApiError(response);
    // Only while the session is the one refreshed: a session ended meanwhile (its end by time
    // revoked the token) has said why already.
    if (response.status === 401 && session.get().credentials.refreshToken === refreshToken) {
      forceLogout(apiMessages.invalidLogin);
    }
    throw error;
  }
  storeToken(await parse<TokenResponse>(response, 'json'));
}

/**
 * A setup credential (token login, no refresh token) lasts 30 minutes; an
 * applicant still in the wizard has no password to log in with. While the
 * invitation is valid, a token login with it gives a new credential: true.
 * False when the invitation is gone (403: used or expired).
 */
async function renewSetupCredential(invitationToken: string): Promise<boolean> {
  const response = await send('api/user', { query: { token: invitationToken } }, null);
  if (response.status === 403) return false;
  if (!response.ok) throw await toApiError(response);
  const payload = await parse<TokenLoginPayload>(response, 'json');
  storeToken({ access_token: payload.access_token, expires_in: payload.expires_in });
  return true;
}

// Whether the applicant of a setup session has made a password yet. The query cache of the user
// (./current-user) answers once it has loaded, as it has by the time a setup session had a guarded
// page open; the client does not import it, which would bring TanStack Query to /login.
let hasPassword: () => boolean = () => false;

/** Called by ./current-user as it loads: how this client learns whether the applicant has a password. */
export function setPasswordCheck(check: () => boolean) {
  hasPassword = check;
}

/** Logout when a setup credential expired for good, with the way forward on the login page. */
function endSetupSession() {
  const known = hasPassword();
  forceLogout();
  setLoginNotice(known ? apiMessages.setupEndedLogIn : apiMessages.setupEndedInvitationGone);
}

// Like the refresh: one renewal at a time, every 401 meanwhile waits for it.
let renewalInFlight: Promise<boolean> | null = null;

function sharedRenewal(invitationToken: string): Promise<boolean> {
  renewalInFlight ??= renewSetupCredential(invitationToken).finally(() => {
    renewalInFlight = null;
  });
  return renewalInFlight;
}

function sharedRefresh(refreshToken: string): Promise<void> {
  refreshInFlight ??= refresh(refreshToken).finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

/**
 * A new access token for the session before its own expires ("Stay signed in"): the refresh token
 * of a login, else the invitation of a setup session. False when neither can give one.
 */
export async function renewSession(): Promise<boolean> {
  const { refreshToken } = session.get().credentials;
  const { invitationToken } = session.get();
  if (refreshToken) {
    await sharedRefresh(refreshToken);
    return true;
  }
  if (invitationToken) return sharedRenewal(invitationToken);
  return false;
}

async function request<T>(path: string, options: RequestOptions, retried: boolean): Promise<T> {
  const jwt = session.get().credentials.jwt;
  const response = await send(path, options, jwt);
  if (response.ok) return parse<T>(response, options.responseType);

  const error = await toApiError(response);
  if (response.status === 401) {
    if (error.errorCode === apiCodes.credentialsIncorrect) throw error;
    // No session (any more): a request of a page whose session ended (a logout, its end by time)
    // while it was on its way or as the page let go. Nothing to renew, and the logout that ended
    // it has said why already.
    if (session.get().credentials.jwt === null) throw error;
    if (isTokenEndpoint(path)) {
      if (!session.get().isLogoutInitiated) forceLogout();
      throw error;
    }
    const { refreshToken } = session.get().credentials;
    const { invitationToken, loggedIn } = session.get();
    if (!retried && !refreshToken && !loggedIn && invitationToken) {
      // A setup session: the same credential may have been renewed meanwhile.
      const renewed = session.get().credentials.jwt !== jwt || (await sharedRenewal(invitationToken));
      if (renewed) return request<T>(path, options, true);
      endSetupSession();
      throw error;
    }
    if (!retried && refreshToken) {
      // Another request may have refreshed already while this one was on its way.
      if (session.get().credentials.jwt === jwt) await sharedRefresh(refreshToken);
      else if (refreshInFlight) await refreshInFlight;
      return request<T>(path, options, true);
    }
    forceLogout(apiMessages.invalidLogin);
    throw error;
  }
  if (response.status === 403 && !options.silentForbidden) notify(apiMessages.accessDenied, 'error');
  throw error;
}

export function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return tracked(() => request<T>(path, options, false));
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
