// Logging in and out (spec section 4): password login, token login from an
// invitation link, and logout. The credentials go to ./session; the user and
// the company's settings to the query cache (./current-user).
import type { CompanySettings, TokenLoginPayload, TokenResponse, UserPayload } from '@/types/api';
import { ApiError, TOKEN_ENDPOINT, api, clientCredentials, storeToken } from './api-client';
import { raiseSubjectStatusMoved } from './app-events';
import { setLoginNotice } from './login-notice';
import { navigateTo } from './navigation';
import { notify } from './notifications';
import { resetSession, session } from './session';
import { t } from './i18n';

/** Company preferences when the settings are missing (spec section 9, first reading). */
export const defaultCompanyPreferences: CompanySettings['preferences'] = {
  company_subject_chat: false,
  company_subject_password_length: 15,
  company_require_ssn: false,
  company_applicant_collection_site_selection: false,
};

type UserCache = Pick<typeof import('./current-user'), 'setCurrentUser' | 'loadCompanySettings'>;

// The query cache of the user (./current-user) loads with the first login or guarded page, not with
// /login. It imports this module, so this one does not import it (no import cycle): main.tsx hands
// over how to load it. A cycle here also cost /login 1.4 kB: the API client, i18n and their
// neighbours left the entry chunk for chunks of their own.
let loadUserCache: (() => Promise<UserCache>) | null = null;

/** Called once at start (main.tsx; src/testing/setup.ts for the tests): how to load the user's query cache. */
export function setUserCacheLoader(load: () => Promise<UserCache>) {
  loadUserCache = load;
}

function userCache(): Promise<UserCache> {
  if (!loadUserCache) throw new Error('auth: no loader for the query cache of the user (main.tsx sets it)');
  return loadUserCache();
}

/** Keeps the answer of GET /api/v2/user (or token login) as the current user in the query cache. */
export async function storeUserPayload(payload: UserPayload) {
  (await userCache()).setCurrentUser(payload);
}

/**
 * POST /api/v2/user/subject/status: moves the status (the server checks the move) and keeps the user it answers.
 * The submission (idv-started) carries the applicant's declaration that their answers are true and complete.
 */
export async function moveSubjectStatus(statusId: number, declaration?: true): Promise<UserPayload> {
  const payload = await postSubjectStatus(statusId, declaration);
  await keepMovedStatus(payload);
  return payload;
}

/**
 * The move on the server alone: the page stays where it is (its guard would send the applicant on
 * as soon as the cache knew) until keepMovedStatus. /idv/success records the step at once and
 * shows its confirmation before moving on.
 */
export function postSubjectStatus(statusId: number, declaration?: true): Promise<UserPayload> {
  return api.post<UserPayload>('api/v2/user/subject/status', { statusId, ...(declaration && { declaration }) });
}

/** The user a status move answered, into the cache: the guards now follow the new status. */
export async function keepMovedStatus(payload: UserPayload) {
  await storeUserPayload(payload);
  raiseSubjectStatusMoved();
}

/** The company's settings into the query cache; without them the defaults apply (default logo, no chat). */
export async function loadCompanySettings(companyId: number) {
  await (await userCache()).loadCompanySettings(companyId);
}

export function getCurrentUser() {
  return api.get<UserPayload>('api/v2/user');
}

export type LoginInput = {
  username: string;
  password: string;
};

/** Password grant, then the user and the company settings; marks the session logged in. */
export async function loginWithPassword({ username, password }: LoginInput) {
  await loginWithGrant({ grant_type: 'password', username, password });
}

/** A grant (password, or a one-time code), then the session it starts. */
export async function loginWithGrant(grant: Record<string, string>) {
  const token = await api.post<TokenResponse>(TOKEN_ENDPOINT, { ...grant, ...clientCredentials(), scope: 'default' });
  await startSession(token);
}

/**
 * A login's tokens (a grant, or a link to continue on another device), then the user and the
 * company settings; marks the session logged in.
 */
export async function startSession(token: TokenResponse) {
  storeToken(token);
  const user = await getCurrentUser();
  await storeUserPayload(user);
  // Without the settings the defaults apply (default logo, no chat); that is no reason to refuse the login.
  await loadCompanySettings(user.company.id);
  session.set({ loggedIn: true, isLogoutInitiated: false });
  setLoginNotice(null);
  sendTimeZone();
}

/**
 * The browser's time zone, so that reminders keep to the applicant's quiet hours before an
 * address says where they live. Sent without waiting: nothing depends on it, and a failure is
 * nobody's concern.
 */
function sendTimeZone() {
  // In a task of its own: the first Intl.DateTimeFormat loads the browser's time zone data, tens of
  // milliseconds on a phone, which would otherwise lengthen the task that renders the next page
  // (issue 27: Lighthouse's total blocking time on /setup and after a login).
  setTimeout(() => {
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (timeZone) api.put('api/v2/user/timezone', { timeZone }, { silentForbidden: true }).catch(() => undefined);
  });
}

/**
 * Token login from an invitation link: a setup-scoped credential and the
 * user, but not "logged in" (the setup wizard's Login step does that). A used,
 * expired or unknown invitation (403) is no access problem: instead of the
 * global Access Denied message, the login page it goes to explains it and
 * offers a new link for it.
 */
export async function loginWithInvitationToken(token: string) {
  let payload: TokenLoginPayload;
  try {
    payload = await api.get<TokenLoginPayload>('api/user', { query: { token }, silentForbidden: true });
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) setLoginNotice(t('errors.invitationInvalid'), token);
    throw error;
  }
  setLoginNotice(null);
  // A setup-scoped credential comes without a refresh token.
  storeToken({ access_token: payload.access_token, expires_in: payload.expires_in });
  await storeUserPayload(payload);
  // Kept for the session's life: when the setup credential expires before a
  // password exists, the API client gets a new one with it (api-client.ts).
  session.set({ invitationToken: token });
  await loadCompanySettings(payload.company.id);
  sendTimeZone();
}

/** Logout exactly as spec section 4 describes it. */
export async function logout() {
  session.set({ loggedIn: false, isLogoutInitiated: true });
  try {
    await api.delete(TOKEN_ENDPOINT);
  } catch {
    // The token may be expired or revoked already; the session ends all the same.
  }
  resetSession();
  notify(t('errors.loggedOut'), 'success');
  navigateTo('/login');
}

/** The name the menu shows: personal information first, the account's names otherwise. */
export function fullNameOf(user: UserPayload['subject'] | null): string {
  if (!user) return '';
  const info = user.personalInformation;
  const first = info?.firstName ?? user.firstName ?? user.first_name ?? '';
  const last = info?.lastName ?? user.lastName ?? user.last_name ?? '';
  return `${first} ${last}`.trim();
}
