import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logout } from '@/lib/auth';
import { CHUNK_RELOAD_KEY } from '@/lib/chunk-reload';
import { t } from '@/lib/i18n';
import { setNavigator } from '@/lib/navigation';
import { notifications } from '@/lib/notifications';
import { resetSession, session, SESSION_STORAGE_KEY } from '@/lib/session';
import { logInAs } from '@/testing/render-app';
import { cachedCurrentUser } from '@/lib/current-user';

const navigate = vi.fn();

/** Where earlier versions kept the personal form's draft; drafts now live sealed on the server. */
const LEGACY_DRAFT_KEY = 'portal-personal-draft';

/** A session as a logged-in applicant leaves it: credentials, an older version's personal-form draft, and the time of a chunk reload. */
function fillStorage() {
  logInAs(2);
  sessionStorage.setItem(LEGACY_DRAFT_KEY, JSON.stringify({ firstName: 'Dana' }));
  sessionStorage.setItem(CHUNK_RELOAD_KEY, '1700000000000');
}

beforeEach(() => {
  setNavigator(navigate);
});

afterEach(() => {
  navigate.mockReset();
  sessionStorage.clear();
});

describe('session storage', () => {
  it('keeps the session in sessionStorage', () => {
    fillStorage();
    expect(JSON.parse(sessionStorage.getItem(SESSION_STORAGE_KEY) ?? '{}')).toMatchObject({ loggedIn: true });
  });

  it("a reset removes the session and an older version's personal-form draft, and keeps the chunk-reload time", () => {
    fillStorage();
    sessionStorage.setItem('someone-else', 'kept');
    resetSession();
    expect(sessionStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(sessionStorage.getItem(LEGACY_DRAFT_KEY)).toBeNull();
    expect(sessionStorage.getItem(CHUNK_RELOAD_KEY)).toBe('1700000000000');
    expect(sessionStorage.getItem('someone-else')).toBe('kept');
    expect(session.get()).toMatchObject({ loggedIn: false, credentials: { jwt: null } });
    expect(cachedCurrentUser()).toBeUndefined();
  });

  it('logout clears the session and the draft, keeps the chunk-reload time, and says so', async () => {
    fillStorage();
    await logout();
    expect(sessionStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(sessionStorage.getItem(LEGACY_DRAFT_KEY)).toBeNull();
    // Without it a broken deployment could reload in a loop right after a logout.
    expect(sessionStorage.getItem(CHUNK_RELOAD_KEY)).toBe('1700000000000');
    expect(navigate).toHaveBeenCalledWith('/login');
    expect(notifications.getSnapshot().map((s) => s.text)).toEqual([t('errors.loggedOut')]);
  });
});
