// What /reset hands to /login after a new password is set: the account's
// e-mail address, in the history state rather than the URL, where an address
// would end up in logs and the browser's history.

export type LoginLocationState = { username: string };

export const loginStateAfterReset = (username: string): LoginLocationState => ({ username });

/** The e-mail address /login starts with, when /reset sent the visitor there. */
export function usernameFromLoginState(state: unknown): string {
  const username = (state as Partial<LoginLocationState> | null)?.username;
  return typeof username === 'string' ? username : '';
}
