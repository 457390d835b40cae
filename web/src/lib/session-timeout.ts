// When a session ends, and what happens then (WCAG 2.2.1, timing adjustable). A session lasts as
// long as its access token: two minutes before, an applicant at work (a key or pointer press in
// the last ten minutes) gets a new token without a word, and one who left it alone gets a dialog
// (components/session-timeout) that offers to stay signed in, which renews the token and starts
// the clock again. Unanswered, the session ends
// a few seconds before the token does, while it still works: the open forms' unsaved changes are
// sent as drafts, the token is revoked, and the login page says why and goes back to the same page.
import { TOKEN_ENDPOINT, api, forceLogout } from './api-client';
import { flushOpenDrafts } from './draft-flush';
import { t } from './i18n';
import { session } from './session';

/** How long before the end the warning shows. */
export const SESSION_WARNING_MS = 2 * 60_000;
/** How long before the token expires the session ends: the drafts and the logout still need it. */
export const SESSION_END_MARGIN_MS = 5_000;

/** When the session ends (ms since epoch), or null without one. */
export function sessionEndOf(tokenExpiration: number | null): number | null {
  return tokenExpiration === null ? null : tokenExpiration - SESSION_END_MARGIN_MS;
}

let ending = false;

/** Ends the session by time: drafts sent, the token revoked, the login page with the reason. */
export async function endSessionByTime() {
  if (ending) return;
  ending = true;
  try {
    // A setup session (an invitation link, no login yet) has no password to sign in again with.
    const { loggedIn, invitationToken } = session.get();
    await flushOpenDrafts();
    session.set({ isLogoutInitiated: true });
    try {
      await api.delete(TOKEN_ENDPOINT);
    } catch {
      // Already expired or revoked: the session ends all the same.
    }
    forceLogout(
      !loggedIn && invitationToken ? t('common.sessionTimeout.endedSetup') : t('common.sessionTimeout.ended'),
    );
  } finally {
    ending = false;
  }
}
