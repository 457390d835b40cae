import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { passwordMessages } from '@/lib/password-policy';
import { renderApp, settled } from '@/testing/render-app';
import { server } from '@/testing/server';

async function openReset(url: string) {
  const app = renderApp(url);
  await settled(app.router);
  return app;
}

const spent = {
  errorMessage: 'validation error',
  errorFields: [{ field: 'token', message: 'This reset link is invalid or has expired. Please ask for a new one.' }],
};

describe('reset page', () => {
  it('checks the link, then sets the new password with its token and goes to /login', async () => {
    const verified: unknown[] = [];
    let body: unknown;
    server.use(
      http.post('/api/user/password/reset/verify', async ({ request }) => {
        verified.push(await request.json());
        return HttpResponse.json({ valid: true });
      }),
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
    expect(verified).toEqual([{ token: 'reset-1' }]);
    expect(body).toEqual({ token: 'reset-1', password: 'A-long-new-password-1' });
  });

  it('after the new password, /login has the link’s e-mail filled in (not in the URL) and the password focused', async () => {
    server.use(
      http.post('/api/user/password/reset/verify', () =>
        HttpResponse.json({ valid: true, username: 'jordan.reyes@example.com' }),
      ),
      http.post('/api/user/password/reset/confirm', () =>
        HttpResponse.json({ message: 'Your password has been changed.' }),
      ),
    );
    const { user, router } = await openReset('/reset?token=reset-2');
    await user.type(await screen.findByLabelText('New password'), 'A-long-new-password-1');
    await user.type(screen.getByLabelText('Confirm new password'), 'A-long-new-password-1');
    await user.click(screen.getByRole('button', { name: 'Set Password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe('');
    const email = await screen.findByLabelText('E-mail');
    expect(email).toHaveValue('jordan.reyes@example.com');
    await waitFor(() => expect(screen.getByLabelText('Password')).toHaveFocus());
  });

  it('a spent link goes to /new-link, which says so and sends a new reset link for its token', async () => {
    let renewal: unknown;
    server.use(
      http.post('/api/user/password/reset/verify', () => HttpResponse.json(spent, { status: 422 })),
      http.get('/api/v2/links/status', () => HttpResponse.json({ kind: 'reset', state: 'used' })),
      http.post('/api/v2/links/renew', async ({ request }) => {
        renewal = await request.json();
        return HttpResponse.json({ message: 'sent' }, { status: 202 });
      }),
    );
    const { user, router } = await openReset('/reset?token=used');
    expect(
      await screen.findByText('This password reset link was already used. Each link works once.'),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/new-link');
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send me a new link' }));
    expect(await screen.findByRole('heading', { name: 'Check your e-mail' })).toBeInTheDocument();
    expect(renewal).toEqual({ kind: 'reset', token: 'used' });
  });

  it('has the Create Password page’s hint, rules checklist and show toggle', async () => {
    const { user } = await openReset('/reset?token=reset-1');
    const password = await screen.findByLabelText('New password');
    expect(screen.getByText(/Choose a password of at least 15 characters/)).toBeInTheDocument();
    const rules = screen.getByRole('list', { name: 'Password rules' });
    expect(password).toHaveAttribute('aria-describedby', expect.stringContaining(rules.id));
    expect(within(rules).getByText(/15 to 128 characters/)).toHaveTextContent('(not yet)');
    await user.type(password, 'A-long-new-password-1');
    expect(within(rules).getByText(/15 to 128 characters/)).toHaveTextContent('(done)');
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByLabelText('Show password'));
    expect(password).toHaveAttribute('type', 'text');
    expect(screen.getByLabelText('Confirm new password')).toHaveAttribute('type', 'text');
  });

  it('says when the confirmation does not match', async () => {
    const { user } = await openReset('/reset?token=reset-1');
    await user.type(await screen.findByLabelText('New password'), 'one-long-password-here');
    await user.type(screen.getByLabelText('Confirm new password'), 'another');
    await user.tab();
    expect(await screen.findByText(passwordMessages.mismatch)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Set Password' })).toBeDisabled();
  });

  it.each(['passwordpassword', 'Dragon'.repeat(3)])(
    'refuses the leaked password %s before submit, the list loaded once the field is focused',
    async (leaked) => {
      const { user } = await openReset('/reset?token=reset-1');
      const password = await screen.findByLabelText('New password');
      await user.click(password);
      await user.paste(leaked);
      await user.tab();
      expect(await screen.findByText(passwordMessages.common)).toBeInTheDocument();
      expect(password).toHaveAccessibleDescription(expect.stringContaining(passwordMessages.common));
      const rules = screen.getByRole('list', { name: 'Password rules' });
      expect(within(rules).getByText(/Not a common or leaked password/)).toHaveTextContent('(not yet)');
      expect(within(rules).getByText(/15 to 128 characters/)).toHaveTextContent('(done)');
      expect(screen.getByRole('button', { name: 'Set Password' })).toBeDisabled();
    },
  );

  it('puts a server password message on the field, focused, once', async () => {
    server.use(
      http.post('/api/user/password/reset/confirm', () =>
        HttpResponse.json(
          {
            errorMessage: 'validation error',
            errorFields: [{ field: 'password', message: 'The password must be at least 20 characters.' }],
          },
          { status: 422 },
        ),
      ),
    );
    const { user } = await openReset('/reset?token=old');
    const password = await screen.findByLabelText('New password');
    await user.type(password, 'A-long-new-password-1');
    await user.type(screen.getByLabelText('Confirm new password'), 'A-long-new-password-1');
    await user.click(screen.getByRole('button', { name: 'Set Password' }));
    expect(await screen.findByText('The password must be at least 20 characters.')).toBeInTheDocument();
    expect(screen.getAllByText('The password must be at least 20 characters.')).toHaveLength(1);
    expect(password).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(password).toHaveFocus());
    // The checklist does not say all is well beside the refusal: the rule it breaks is unmet.
    const rules = screen.getByRole('list', { name: 'Password rules' });
    expect(within(rules).getByText(/15 to 128 characters/)).toHaveTextContent('(not yet)');
    await user.tab();
    expect(screen.getByText('The password must be at least 20 characters.')).toBeVisible();
    // A changed password is checked afresh.
    await user.type(password, 'x');
    expect(screen.queryByText('The password must be at least 20 characters.')).not.toBeInTheDocument();
    expect(within(rules).getByText(/15 to 128 characters/)).toHaveTextContent('(done)');
  });

  it('shows and checks the identity rule with the account the link names', async () => {
    const { user } = await openReset('/reset?token=reset-1');
    const password = await screen.findByLabelText('New password');
    const rules = screen.getByRole('list', { name: 'Password rules' });
    await user.click(password);
    await user.paste('my jane@example.com password');
    await user.tab();
    expect(within(rules).getByText(/Not your username or e-mail address/)).toHaveTextContent('(not yet)');
    expect(await screen.findByText(passwordMessages.identity)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Confirm new password'), 'my jane@example.com password');
    expect(screen.getByRole('button', { name: 'Set Password' })).toBeDisabled();
  });

  it('leaves the identity rule out when the server does not name the account, and shows it unmet when the server refuses by it', async () => {
    server.use(
      http.post('/api/user/password/reset/verify', () => HttpResponse.json({ valid: true })),
      http.post('/api/user/password/reset/confirm', () =>
        HttpResponse.json(
          {
            errorMessage: 'validation error',
            errorFields: [{ field: 'password', message: passwordMessages.identity }],
          },
          { status: 422 },
        ),
      ),
    );
    const { user } = await openReset('/reset?token=reset-1');
    const password = await screen.findByLabelText('New password');
    const rules = screen.getByRole('list', { name: 'Password rules' });
    expect(within(rules).queryByText(/Not your username/)).not.toBeInTheDocument();
    await user.click(password);
    await user.paste('my jane@example.com password');
    await user.type(screen.getByLabelText('Confirm new password'), 'my jane@example.com password');
    await user.click(screen.getByRole('button', { name: 'Set Password' }));
    expect(await screen.findByText(passwordMessages.identity)).toBeVisible();
    expect(within(rules).getByText(/Not your username or e-mail address/)).toHaveTextContent('(not yet)');
  });

  it('a refusal that names no rule leaves no rule shown as met', async () => {
    server.use(
      http.post('/api/user/password/reset/confirm', () =>
        HttpResponse.json(
          { errorMessage: 'validation error', errorFields: [{ field: 'password', message: 'Not allowed here.' }] },
          { status: 422 },
        ),
      ),
    );
    const { user } = await openReset('/reset?token=reset-1');
    await user.type(await screen.findByLabelText('New password'), 'A-long-new-password-1');
    await user.type(screen.getByLabelText('Confirm new password'), 'A-long-new-password-1');
    await user.click(screen.getByRole('button', { name: 'Set Password' }));
    expect(await screen.findByText('Not allowed here.')).toBeVisible();
    const rules = screen.getByRole('list', { name: 'Password rules' });
    expect(within(rules).queryByText(/\(done\)/)).not.toBeInTheDocument();
  });

  it('a link spent while the form was filled goes to the new-link page', async () => {
    server.use(
      http.post('/api/user/password/reset/confirm', () => HttpResponse.json(spent, { status: 422 })),
      http.get('/api/v2/links/status', () => HttpResponse.json({ kind: 'reset', state: 'used' })),
    );
    const { user } = await openReset('/reset?token=old');
    await user.type(await screen.findByLabelText('New password'), 'A-long-new-password-1');
    await user.type(screen.getByLabelText('Confirm new password'), 'A-long-new-password-1');
    await user.click(screen.getByRole('button', { name: 'Set Password' }));
    expect(
      await screen.findByRole('heading', { name: 'Your password reset link no longer works' }),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });

  it('without a token explains where the link comes from', async () => {
    await openReset('/reset');
    expect(await screen.findByText(/needs the link from the password reset e-mail/)).toBeInTheDocument();
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });
});
