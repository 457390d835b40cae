import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadDraft, saveDraft } from '@/features/personal/lib/personal-draft';
import { authMessages, logout } from '@/lib/auth';
import { CHUNK_RELOAD_KEY } from '@/lib/chunk-reload';
import { setNavigator } from '@/lib/navigation';
import { notifications } from '@/lib/notifications';
import { resetSession, session, SESSION_STORAGE_KEY } from '@/lib/session';
import { logInAs } from '@/testing/render-app';
import { cachedCurrentUser } from '@/lib/current-user';

const navigate = vi.fn();

/** A session as a logged-in applicant leaves it: credentials, a personal-form draft, and the time of a chunk reload. */
function fillStorage() {
  logInAs(2);
  saveDraft({ firstName: 'Dana', lastName: 'Demo', ssn: '123-45-6789', confirmSSN: '123-45-6789' } as Parameters<
    typeof saveDraft
  >[0]);
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
  it('keeps the session in sessionStorage, and the draft without the SSN', () => {
    fillStorage();
    expect(JSON.parse(sessionStorage.getItem(SESSION_STORAGE_KEY) ?? '{}')).toMatchObject({ loggedIn: true });
    expect(loadDraft()).toMatchObject({ firstName: 'Dana' });
    expect(loadDraft()).not.toHaveProperty('ssn');
  });

  it('a reset removes the session and the personal-form draft, and keeps the chunk-reload time', () => {
    fillStorage();
    sessionStorage.setItem('someone-else', 'kept');
    resetSession();
    expect(sessionStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(loadDraft()).toBeNull();
    expect(sessionStorage.getItem(CHUNK_RELOAD_KEY)).toBe('1700000000000');
    expect(sessionStorage.getItem('someone-else')).toBe('kept');
    expect(session.get()).toMatchObject({ loggedIn: false, credentials: { jwt: null } });
    expect(cachedCurrentUser()).toBeUndefined();
  });

  it('logout clears the session and the draft, keeps the chunk-reload time, and says so', async () => {
    fillStorage();
    await logout();
    expect(sessionStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(loadDraft()).toBeNull();
    // Without it a broken deployment could reload in a loop right after a logout.
    expect(sessionStorage.getItem(CHUNK_RELOAD_KEY)).toBe('1700000000000');
    expect(navigate).toHaveBeenCalledWith('/login');
    expect(notifications.getSnapshot().map((s) => s.text)).toEqual([authMessages.loggedOut]);
  });
});
