import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp, settled } from '@/testing/render-app';
import { server } from '@/testing/server';

async function openCodeForm() {
  const app = renderApp('/login');
  await settled(app.router);
  await app.user.click(await screen.findByRole('button', { name: 'Email me a sign-in code' }));
  await screen.findByRole('heading', { name: 'Sign in with a code' });
  return app;
}

describe('one-time code sign-in', () => {
  it('asks for the e-mail first, with the error next to the field', async () => {
    const { user } = await openCodeForm();
    await user.click(screen.getByRole('button', { name: 'Email me a sign-in code' }));
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription(/Enter your e-mail address/);
  });

  it('sends a code, then checks its format and shows a wrong code next to the field', async () => {
    let requested: unknown;
    server.use(
      http.post('/api/v2/login/code', async ({ request }) => {
        requested = await request.json();
        return HttpResponse.json({ message: 'sent' }, { status: 202 });
      }),
      http.post('/oauth/access_token', () =>
        HttpResponse.json(
          { error: 'invalid_grant', errorMessage: 'The sign-in code is incorrect or has expired.' },
          { status: 401 },
        ),
      ),
    );
    const { user } = await openCodeForm();
    await user.type(screen.getByLabelText('E-mail'), 'jane@example.com');
    await user.click(screen.getByRole('button', { name: 'Email me a sign-in code' }));
    const code = await screen.findByLabelText('Sign-in code');
    expect(requested).toEqual({ username: 'jane@example.com', channel: 'email' });
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    await user.type(code, '12a');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(code).toHaveAccessibleDescription(/The sign-in code is 6 digits/);
    await user.clear(code);
    await user.type(code, '123 456');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText(/That code is not right/)).toBeInTheDocument();
  });

  it('says when too many tries are throttled', async () => {
    server.use(
      http.post('/api/v2/login/code', () => HttpResponse.json({ message: 'sent' }, { status: 202 })),
      http.post('/oauth/access_token', () =>
        HttpResponse.json(
          { error: 'too_many_requests', errorMessage: 'Too many' },
          { status: 429, headers: { 'Retry-After': '600' } },
        ),
      ),
    );
    const { user } = await openCodeForm();
    await user.type(screen.getByLabelText('E-mail'), 'jane@example.com');
    await user.click(screen.getByRole('button', { name: 'Text me a code instead' }));
    await user.type(await screen.findByLabelText('Sign-in code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/Too many attempts. Please wait 10 minutes/);
  });
});
