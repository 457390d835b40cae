import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp, settled } from '@/testing/render-app';
import { server } from '@/testing/server';

async function openReset(url: string) {
  const app = renderApp(url);
  await settled(app.router);
  return app;
}

describe('reset page', () => {
  it('sets the new password with the token of the e-mailed link and goes to /login', async () => {
    let body: unknown;
    server.use(
      http.post('/api/user/password/reset/confirm', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ message: 'Your password has been changed.' });
      }),
    );
    const { user, router } = await openReset('/reset?token=reset-1');
    await user.type(await screen.findByLabelText('New password'), 'A-long-new-password-1');
    await user.type(screen.getByLabelText('Confirm new password'), 'A-long-new-password-1');
    await user.click(screen.getByRole('button', { name: 'Set Password' }));
    expect(await screen.findByText('Your password has been changed.')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(body).toEqual({ token: 'reset-1', password: 'A-long-new-password-1' });
  });

  it('says when the confirmation does not match', async () => {
    const { user } = await openReset('/reset?token=reset-1');
    await user.type(await screen.findByLabelText('New password'), 'one-password');
    await user.type(screen.getByLabelText('Confirm new password'), 'another');
    await user.tab();
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Set Password' })).toBeDisabled();
  });

  it('puts the server field errors on the password field and shows token errors above the form', async () => {
    server.use(
      http.post('/api/user/password/reset/confirm', () =>
        HttpResponse.json(
          {
            errorMessage: 'validation error',
            errorFields: [
              { field: 'token', message: 'The reset link is invalid or has expired.' },
              { field: 'password', message: 'The password must be at least 15 characters.' },
            ],
          },
          { status: 422 },
        ),
      ),
    );
    const { user } = await openReset('/reset?token=old');
    await user.type(await screen.findByLabelText('New password'), 'short');
    await user.type(screen.getByLabelText('Confirm new password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Set Password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The reset link is invalid or has expired.');
    expect(screen.getByText('The password must be at least 15 characters.')).toBeInTheDocument();
    expect(screen.getByLabelText('New password')).toHaveAttribute('aria-invalid', 'true');
  });

  it('without a token explains where the link comes from', async () => {
    await openReset('/reset');
    expect(await screen.findByText(/needs the link from the password reset e-mail/)).toBeInTheDocument();
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });
});
