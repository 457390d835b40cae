import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { apiMessages } from '@/lib/api-client';
import { t } from '@/lib/i18n';
import { notifications } from '@/lib/notifications';
import { session } from '@/lib/session';
import { userPayload } from '@/testing/fixtures';
import { createTestRouter, renderApp, settled } from '@/testing/render-app';
import { server } from '@/testing/server';
import { cachedCurrentUser } from '@/lib/current-user';

describe('token guard', () => {
  it('logs in with the invitation token and keeps the setup credential without marking the session logged in', async () => {
    server.use(
      http.get('/api/user', () =>
        HttpResponse.json({
          ...userPayload(0),
          access_token: 'setup-1',
          token_type: 'Bearer',
          expires_in: 900,
          scope: 'setup',
        }),
      ),
    );
    const router = createTestRouter('/setup?token=invite-1');
    await settled(router);
    expect(router.state.location.pathname).toBe('/setup');
    expect(session.get()).toMatchObject({
      loggedIn: false,
      credentials: { jwt: 'setup-1', refreshToken: null },
      invitationToken: 'invite-1',
    });
    expect(cachedCurrentUser()?.subject).toMatchObject({ username: 'demo.applicant@example.com' });
  });

  it('sends an unknown, expired or used invitation token (403) to /login, as the spec says', async () => {
    server.use(http.get('/api/user', () => HttpResponse.json({ errorMessage: 'Forbidden' }, { status: 403 })));
    const router = createTestRouter('/setup?token=used');
    await settled(router);
    expect(router.state.location.pathname).toBe('/login');
    expect(session.get().credentials.jwt).toBeNull();
  });

  it('explains an expired invitation on /login and sends a new link for its token, instead of the Access Denied message', async () => {
    let renewal: unknown;
    server.use(
      http.get('/api/user', () => HttpResponse.json({ errorMessage: 'Forbidden' }, { status: 403 })),
      http.get('/api/v2/links/status', () => HttpResponse.json({ kind: 'invitation', state: 'expired' })),
      http.post('/api/v2/links/renew', async ({ request }) => {
        renewal = await request.json();
        return HttpResponse.json({ message: 'sent' }, { status: 202 });
      }),
    );
    const { router, user } = renderApp('/setup?token=expired');
    expect(await screen.findByRole('heading', { name: 'Your invitation link no longer works' })).toHaveFocus();
    expect(await screen.findByText(/This invitation link has expired/)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    // The login form stays below it, for an applicant who has a password.
    expect(screen.getByRole('button', { name: 'Login' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send me a new link' }));
    expect(await screen.findByRole('heading', { name: 'Check your e-mail' })).toHaveFocus();
    expect(renewal).toEqual({ kind: 'invitation', token: 'expired' });
    expect(notifications.getSnapshot()).toEqual([]);
    expect(screen.queryByText(apiMessages.accessDenied)).not.toBeInTheDocument();
  });

  it('forgets the invitation notice once a login succeeds', async () => {
    server.use(
      http.get('/api/user', ({ request }) =>
        new URL(request.url).searchParams.get('token') === 'good'
          ? HttpResponse.json({
              ...userPayload(0),
              access_token: 'setup-1',
              token_type: 'Bearer',
              expires_in: 900,
              scope: 'setup',
            })
          : HttpResponse.json({ errorMessage: 'Forbidden' }, { status: 403 }),
      ),
    );
    const expired = createTestRouter('/setup?token=expired');
    await settled(expired);
    expect(expired.state.location.pathname).toBe('/login');

    const router = createTestRouter('/setup?token=good');
    await settled(router);
    expect(router.state.location.pathname).toBe('/setup');
    renderApp('/login');
    expect(await screen.findByRole('heading', { name: 'Applicant Portal' })).toBeInTheDocument();
    expect(screen.queryByText(t('errors.invitationInvalid'))).not.toBeInTheDocument();
  });

  it('rethrows other token login errors to the error page', async () => {
    server.use(
      http.get('/api/user', () => HttpResponse.json({ errorMessage: 'database unavailable' }, { status: 500 })),
    );
    const router = createTestRouter('/setup?token=abc');
    await settled(router);
    expect(router.state.location.pathname).toBe('/setup');
    const errors = Object.values(router.state.errors ?? {});
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ status: 500, errorMessage: 'database unavailable' });
  });
});
