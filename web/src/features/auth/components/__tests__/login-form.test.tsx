import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { t } from '@/lib/i18n';
import { notifications } from '@/lib/notifications';
import { session } from '@/lib/session';
import { tokenResponse, userPayload } from '@/testing/fixtures';
import { renderApp, settled } from '@/testing/render-app';
import { server } from '@/testing/server';
import { retryAfterSeconds } from '../../lib/login-errors';
import { loginInputSchema } from '../../lib/login-schema';
import { cachedCurrentUser, companySettingsQuery } from '@/lib/current-user';
import { queryClient } from '@/lib/query-client';

async function openLogin() {
  const app = renderApp('/login');
  await settled(app.router);
  const username = await screen.findByLabelText('E-mail');
  const password = screen.getByLabelText('Password');
  const submit = screen.getByRole('button', { name: 'Login' });
  return { ...app, username, password, submit };
}

describe('login form', () => {
  it('the schema requires both fields with the spec messages', () => {
    const result = loginInputSchema.safeParse({ username: ' ', password: '' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual(['E-mail is required', 'Password is required']);
    expect(loginInputSchema.safeParse({ username: 'a', password: 'b' }).success).toBe(true);
  });

  it('shows no message before a field is touched and blocks submit while invalid', async () => {
    const { submit } = await openLogin();
    expect(submit).toBeDisabled();
    expect(screen.queryByText('E-mail is required')).not.toBeInTheDocument();
    expect(screen.queryByText('Password is required')).not.toBeInTheDocument();
  });

  it('shows each required message once its field is touched, and clears it when filled', async () => {
    const { user, username, password, submit } = await openLogin();
    await user.click(username);
    await user.tab();
    expect(await screen.findByText('E-mail is required')).toBeInTheDocument();
    expect(username).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('Password is required')).not.toBeInTheDocument();

    await user.click(password);
    await user.tab();
    expect(await screen.findByText('Password is required')).toBeInTheDocument();

    await user.type(username, 'demo.applicant@example.com');
    await user.type(password, 'secret');
    await waitFor(() => expect(screen.queryByText('E-mail is required')).not.toBeInTheDocument());
    expect(screen.queryByText('Password is required')).not.toBeInTheDocument();
    expect(submit).toBeEnabled();
  });

  it('Enter submits; success says so, fills the session and goes to the page the status allows', async () => {
    let tokenRequest: Record<string, unknown> | undefined;
    server.use(
      http.post('/oauth/access_token', async ({ request }) => {
        tokenRequest = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json({
          access_token: 'a1',
          refresh_token: 'r1',
          expires_in: 3600,
          token_type: 'Bearer',
          scope: 'default',
        });
      }),
      http.get('/api/v2/user', () => HttpResponse.json(userPayload(1))),
    );
    const { user, username, password, router } = await openLogin();
    await user.type(username, 'demo.applicant@example.com');
    await user.type(password, 'Demo-Applicant-2026!{Enter}');

    expect(await screen.findByText('Successfully logged in')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(tokenRequest).toEqual({
      grant_type: 'password',
      username: 'demo.applicant@example.com',
      password: 'Demo-Applicant-2026!',
      client_id: 'portal-spa',
      client_secret: 'portal-spa-secret',
      scope: 'default',
    });
    expect(session.get()).toMatchObject({
      loggedIn: true,
      credentials: { jwt: 'a1', refreshToken: 'r1' },
    });
    // The user, company and settings are server state: in the query cache.
    expect(cachedCurrentUser()).toMatchObject({
      subject: { username: 'demo.applicant@example.com' },
      company: { name: 'Acme Logistics' },
    });
    expect(queryClient.getQueryData(companySettingsQuery(1).queryKey)).toMatchObject({
      preferences: { company_subject_chat: true },
    });
  });

  it('says plainly in the form that the credentials are wrong, until a field is edited; no error toast', async () => {
    server.use(
      http.post('/oauth/access_token', () =>
        HttpResponse.json(
          {
            error: 'invalid_grant',
            errorCode: 'auth.credentials_incorrect',
            errorMessage: 'The user credentials were incorrect.',
            message: 'The user credentials were incorrect.',
          },
          { status: 401 },
        ),
      ),
    );
    const { user, username, password, router } = await openLogin();
    await user.type(username, 'demo.applicant@example.com');
    await user.type(password, 'wrong{Enter}');
    const alert = await within(screen.getByRole('form', { name: 'Login' })).findByRole('alert');
    expect(alert).toHaveTextContent(t('auth.login.credentialsIncorrect'));
    await waitFor(() => expect(alert).toHaveFocus());
    expect(screen.queryByText('The user credentials were incorrect.')).not.toBeInTheDocument();
    expect(notifications.getSnapshot()).toEqual([]);
    expect(router.state.location.pathname).toBe('/login');
    expect(session.get().loggedIn).toBe(false);

    // Still there later: nothing times it out.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByRole('alert')).toHaveTextContent(t('auth.login.credentialsIncorrect'));
    await user.type(password, 'x');
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });

  it.each([
    ['120', 'Too many attempts. Please wait 2 minutes and try again, or reset your password.'],
    ['45', 'Too many attempts. Please wait 1 minute and try again, or reset your password.'],
    [null, 'Too many attempts. Please wait a few minutes and try again, or reset your password.'],
  ])('a 429 with Retry-After %s says how long to wait', async (retryAfter, message) => {
    server.use(
      http.post('/oauth/access_token', () =>
        HttpResponse.json(
          {
            error: 'slow_down',
            errorMessage: 'Too many login attempts. Try again in a minute.',
            message: 'Too many login attempts. Try again in a minute.',
          },
          { status: 429, headers: retryAfter ? { 'Retry-After': retryAfter } : {} },
        ),
      ),
    );
    const { user, username, password } = await openLogin();
    await user.type(username, 'someone');
    await user.type(password, 'x{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(notifications.getSnapshot()).toEqual([]);
  });

  it('a 503 under load asks to try again in a few seconds; submitting again clears it first', async () => {
    let answer = 503;
    server.use(
      http.post('/oauth/access_token', () =>
        answer === 503
          ? HttpResponse.json({ errorMessage: 'Service Unavailable' }, { status: 503, headers: { 'Retry-After': '2' } })
          : HttpResponse.json(tokenResponse()),
      ),
    );
    const { user, username, password, submit, router } = await openLogin();
    await user.type(username, 'demo.applicant@example.com');
    await user.type(password, 'secret{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "We're busy right now. Please try again in a few seconds.",
    );
    answer = 200;
    await user.click(submit);
    await waitFor(() => expect(router.state.location.pathname).not.toBe('/login'));
    expect(screen.queryByText(/busy right now/)).not.toBeInTheDocument();
  });

  it('retryAfterSeconds reads seconds and HTTP dates', () => {
    expect(retryAfterSeconds('90')).toBe(90);
    expect(retryAfterSeconds(new Date(Date.UTC(2026, 0, 1, 0, 5)).toUTCString(), Date.UTC(2026, 0, 1))).toBe(300);
    expect(retryAfterSeconds('soon')).toBeNull();
    expect(retryAfterSeconds(null)).toBeNull();
  });

  it('Forgot Password opens the Reset Password dialog, which sends the e-mail and says in place what follows', async () => {
    let body: unknown;
    server.use(
      http.post('/api/user/password/reset', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ message: 'Request has been sent' });
      }),
    );
    const { user } = await openLogin();
    const forgot = screen.getByRole('button', { name: 'Forgot Password' });
    await user.click(forgot);
    const dialog = await screen.findByRole('dialog', { name: 'Reset Password' });
    const send = within(dialog).getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    const field = within(dialog).getByLabelText('E-mail');
    await user.click(field);
    await user.tab();
    expect(await within(dialog).findByText('E-mail is required')).toBeInTheDocument();
    await user.type(field, 'demo.applicant@example.com');
    await user.click(send);
    // Said in the dialog, where it stays until closed: what to look for, and for how long the link works.
    const sent = await within(dialog).findByRole('status');
    expect(sent).toHaveTextContent('Request has been sent');
    expect(sent).toHaveTextContent(
      'Check your e-mail. If an account exists for demo.applicant@example.com, we have sent a link to reset your password. The link lasts 1 hour.',
    );
    await waitFor(() => expect(sent).toHaveFocus());
    expect(within(dialog).queryByRole('textbox')).not.toBeInTheDocument();
    expect(notifications.getSnapshot()).toEqual([]);
    expect(body).toEqual({ username: 'demo.applicant@example.com' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByRole('dialog', { name: 'Reset Password' })).toBeVisible();

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(forgot).toHaveFocus();
  });

  it('a failed reset request says why inside the dialog, not in a toast, until the e-mail is edited', async () => {
    server.use(
      http.post('/api/user/password/reset', () =>
        HttpResponse.json(
          { errorMessage: 'Too many requests. Please wait a minute.' },
          { status: 429, headers: { 'Retry-After': '60' } },
        ),
      ),
    );
    const { user } = await openLogin();
    await user.click(screen.getByRole('button', { name: 'Forgot Password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset Password' });
    const field = within(dialog).getByLabelText('E-mail');
    await user.type(field, 'demo.applicant@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Too many requests. Please wait a minute.');
    expect(notifications.getSnapshot()).toEqual([]);
    await user.type(field, 'x');
    await waitFor(() => expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument());
  });

  it('the Reset Password dialog closes with Close', async () => {
    const { user } = await openLogin();
    await user.click(screen.getByRole('button', { name: 'Forgot Password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset Password' });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
