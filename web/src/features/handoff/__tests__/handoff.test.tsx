import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { session } from '@/lib/session';
import { companySettings, userPayload } from '@/testing/fixtures';
import { logInAs, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';
import { HANDOFF_EXPIRED, HANDOFF_USED } from '../lib/refusal';

const LINK = 'http://localhost/continue?token=abc';

function handoffApi(phone: string | null, sent: { path: string; send: string | null }[] = []) {
  server.use(
    http.get('/api/v2/user/handoff', () =>
      HttpResponse.json({ email: 'dana@example.com', phone, expiresInSeconds: 600 }),
    ),
    http.post('/api/v2/user/handoff', async ({ request }) => {
      const body = (await request.json()) as { path: string; send: string | null };
      sent.push(body);
      const sentTo = body.send === 'email' ? 'dana@example.com' : body.send === 'sms' ? '1111' : null;
      return HttpResponse.json(
        { url: LINK, expiresAt: new Date(Date.now() + 600_000).toISOString(), sentTo },
        { status: 201 },
      );
    }),
  );
}

describe('Continue on your phone', () => {
  it('shows a QR code with a name and the copyable link for the current page, and e-mails it', async () => {
    const sent: { path: string; send: string | null }[] = [];
    handoffApi(null, sent);
    logInAs(2);
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'User menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Continue on your phone' }));
    expect(
      await screen.findByRole('img', { name: 'QR code of the link to continue on your phone' }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Or copy the link')).toHaveValue(LINK);
    expect(screen.getByText(/works once, for 10 minutes/)).toBeInTheDocument();
    expect(sent[0]).toEqual({ path: '/', send: null });
    // No phone on file: no text button.
    expect(screen.queryByRole('button', { name: 'Text me the link' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Email me the link' }));
    expect(await screen.findByText(/We sent a new link to dana@example.com/)).toBeInTheDocument();
    expect(sent[1]).toEqual({ path: '/', send: 'email' });
  });

  it('offers the text when a phone is on file', async () => {
    const sent: { path: string; send: string | null }[] = [];
    handoffApi('1111', sent);
    logInAs(2);
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'User menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Continue on your phone' }));
    await user.click(await screen.findByRole('button', { name: 'Text me the link' }));
    expect(await screen.findByText(/ending in 1111/)).toBeInTheDocument();
    expect(sent.at(-1)).toEqual({ path: '/', send: 'sms' });
  });
});

describe('/continue', () => {
  it('redeems the link once and opens its page signed in', async () => {
    let grants = 0;
    server.use(
      http.post('/oauth/access_token', async ({ request }) => {
        const body = (await request.json()) as Record<string, string>;
        expect(body.grant_type).toBe('handoff');
        expect(body.handoff_token).toBe('abc');
        grants++;
        return HttpResponse.json({
          access_token: 'phone-access',
          refresh_token: 'phone-refresh',
          expires_in: 3600,
          token_type: 'Bearer',
          scope: 'default',
          path: '/',
        });
      }),
      http.get('/api/v2/user', () => HttpResponse.json(userPayload(2))),
      http.get('/api/settings/company/:id', () => HttpResponse.json(companySettings())),
    );
    const { router } = renderApp('/continue?token=abc');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(session.get().loggedIn).toBe(true);
    expect(session.get().credentials.jwt).toBe('phone-access');
    expect(grants).toBe(1);
  });

  it.each([
    [HANDOFF_USED, 'This link has already been used'],
    [HANDOFF_EXPIRED, 'This link has expired'],
    ['handoff.invalid', 'This link does not work'],
  ])('explains a refused link (%s) with focus on its heading', async (errorCode, heading) => {
    server.use(
      http.post('/oauth/access_token', () =>
        HttpResponse.json(
          {
            error: 'invalid_grant',
            errorCode,
            errorMessage: 'Este enlace no funciona.',
            message: 'Este enlace no funciona.',
          },
          { status: 400 },
        ),
      ),
    );
    renderApp('/continue?token=abc');
    const title = await screen.findByRole('heading', { level: 1, name: heading });
    await waitFor(() => expect(title).toHaveFocus());
    expect(screen.getByRole('link', { name: 'Log in' })).toBeInTheDocument();
  });
});
