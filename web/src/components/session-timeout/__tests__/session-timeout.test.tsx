import { act, fireEvent, render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import SessionTimeout from '@/components/session-timeout/session-timeout';
import { registerDraftFlush } from '@/lib/draft-flush';
import { currentLoginNotice, setLoginNotice, takeReturnPath } from '@/lib/login-notice';
import { setNavigator } from '@/lib/navigation';
import { session } from '@/lib/session';
import { SESSION_END_MARGIN_MS, SESSION_WARNING_MS } from '@/lib/session-timeout';
import { logInAs } from '@/testing/render-app';
import { server } from '@/testing/server';

const TOKEN_LIFETIME_MS = 10 * 60_000;
const navigate = vi.fn();
let warningAt = 0;
let endAt = 0;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  setNavigator(navigate);
  logInAs(2);
  session.set({ tokenExpiration: Date.now() + TOKEN_LIFETIME_MS });
  endAt = TOKEN_LIFETIME_MS - SESSION_END_MARGIN_MS;
  warningAt = endAt - SESSION_WARNING_MS;
  window.history.pushState({}, '', '/personal');
});

afterEach(() => {
  vi.useRealTimers();
  navigate.mockReset();
  setLoginNotice(null);
  takeReturnPath();
  window.history.pushState({}, '', '/');
});

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

/** Answers every token refresh with a new token ('access-2'), counting them. */
function countRefreshes() {
  const refreshes = { count: 0 };
  server.use(
    http.post('/oauth/access_token', () => {
      refreshes.count++;
      return HttpResponse.json({ access_token: 'access-2', refresh_token: 'refresh-2', expires_in: 600 });
    }),
  );
  return refreshes;
}

describe('the session timeout', () => {
  it('warns two minutes before the end in a dialog that takes focus, with Stay signed in and Sign out', async () => {
    render(<SessionTimeout />);
    await advance(warningAt - 1000);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await advance(1000);
    const dialog = screen.getByRole('dialog', { name: 'Your session is about to end' });
    expect(dialog).toHaveAccessibleDescription(/you will be signed out in 2 minutes/);
    expect(screen.getByRole('button', { name: 'Stay signed in' })).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
    expect(dialog).toHaveTextContent('Time left: 2:00');
    await advance(30_000);
    expect(dialog).toHaveTextContent('Time left: 1:30');
  });

  it('Stay signed in renews the token, closes the warning and starts the clock again', async () => {
    const refreshes = countRefreshes();
    render(<SessionTimeout />);
    await advance(warningAt);
    fireEvent.click(screen.getByRole('button', { name: 'Stay signed in' }));
    await advance(0);
    expect(refreshes.count).toBe(1);
    expect(session.get().credentials.jwt).toBe('access-2');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    // The old end passes without a logout; the new one has its own warning.
    await advance(SESSION_WARNING_MS + 10_000);
    expect(navigate).not.toHaveBeenCalled();
    expect(session.get().loggedIn).toBe(true);
    await advance(warningAt - SESSION_WARNING_MS - 10_000);
    expect(screen.getByRole('dialog', { name: 'Your session is about to end' })).toBeInTheDocument();
  });

  it('renews the token without a word for an applicant at work: a key pressed in the last ten minutes', async () => {
    const refreshes = countRefreshes();
    render(<SessionTimeout />);
    await advance(warningAt - 60_000);
    fireEvent.keyDown(document.body, { key: 'a' });
    await advance(60_000);
    expect(refreshes.count).toBe(1);
    expect(session.get().credentials.jwt).toBe('access-2');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await advance(SESSION_WARNING_MS + 10_000);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('unanswered, sends the open forms’ drafts before the logout, then says why on the login page and keeps the page to return to', async () => {
    const order: string[] = [];
    const unregister = registerDraftFlush(async () => {
      order.push('draft');
    });
    server.use(
      http.delete('/oauth/access_token', () => {
        order.push('revoke');
        return new HttpResponse(null, { status: 204 });
      }),
    );
    render(<SessionTimeout />);
    await advance(endAt);
    unregister();

    expect(order).toEqual(['draft', 'revoke']);
    expect(session.get()).toMatchObject({ loggedIn: false, credentials: { jwt: null } });
    expect(navigate).toHaveBeenCalledWith('/login');
    expect(currentLoginNotice()).toMatch(/^Your session ended after a time without activity/);
    expect(takeReturnPath()).toBe('/personal');
  });
});
