import { render, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { StrictMode } from 'react';
import { RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppProvider } from '@/app/provider';
import { session } from '@/lib/session';
import { createTestRouter, logInAs, renderApp, settled } from '@/testing/render-app';
import { server } from '@/testing/server';

const INVALID = 'This confirmation link is invalid or has expired. Please ask for a new one.';

function confirmHandler(answer: () => Response) {
  const tokens: string[] = [];
  server.use(
    http.post('/api/v2/user/email/confirm', async ({ request }) => {
      tokens.push(((await request.json()) as { token: string }).token);
      return answer();
    }),
  );
  return tokens;
}

describe('/confirm-email', () => {
  it('posts the token once and says the address changed, with a way to log in', async () => {
    const tokens = confirmHandler(() => HttpResponse.json({ message: 'Your e-mail address has been changed.' }));
    const { user, router } = renderApp('/confirm-email?token=abc%2B123');
    expect(await screen.findByRole('heading', { level: 1, name: 'Confirm your e-mail address' })).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        'Your e-mail address has been changed. Log in with your new address.',
      ),
    );
    expect(tokens).toEqual(['abc+123']);
    await user.click(screen.getByRole('link', { name: 'Go to the login page' }));
    await settled(router);
    expect(router.state.location.pathname).toBe('/login');
    expect(tokens).toHaveLength(1);
  });

  it('posts once under StrictMode too, as the app runs in development (a link works once)', async () => {
    const tokens = confirmHandler(() => HttpResponse.json({ message: 'Your e-mail address has been changed.' }));
    const router = createTestRouter('/confirm-email?token=once');
    render(
      <StrictMode>
        <AppProvider>
          <RouterProvider router={router} />
        </AppProvider>
      </StrictMode>,
    );
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('has been changed'));
    expect(tokens).toEqual(['once']);
  });

  it('shows a used or expired link as an alert, with a way back', async () => {
    confirmHandler(() =>
      HttpResponse.json(
        { errorMessage: 'validation error', errorFields: [{ field: 'token', message: INVALID }] },
        { status: 422 },
      ),
    );
    renderApp('/confirm-email?token=spent');
    expect(await screen.findByRole('alert')).toHaveTextContent(INVALID);
    expect(screen.getByRole('link', { name: 'Go to the login page' })).toHaveAttribute('href', '/login');
  });

  it('says when another account took the address meanwhile', async () => {
    confirmHandler(() =>
      HttpResponse.json({ errorMessage: 'Another account uses x@example.com now.' }, { status: 409 }),
    );
    renderApp('/confirm-email?token=taken');
    expect(await screen.findByRole('alert')).toHaveTextContent('Another account uses x@example.com now.');
  });

  it('without a token asks for the e-mailed link and sends nothing', async () => {
    renderApp('/confirm-email');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This page needs the link from the confirmation e-mail.',
    );
  });

  it('ends the session of this browser, which the change ended on the server', async () => {
    logInAs(1);
    confirmHandler(() => HttpResponse.json({ message: 'Your e-mail address has been changed.' }));
    renderApp('/confirm-email?token=abc');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('has been changed'));
    expect(session.get().loggedIn).toBe(false);
  });
});
