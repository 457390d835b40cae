import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '@/testing/server';
import { renderApp, settled } from '@/testing/render-app';

describe('/register', () => {
  it('without a token explains how to get an invitation, with the support contact and a login link', async () => {
    renderApp('/register');
    expect(await screen.findByRole('heading', { level: 1, name: 'Register' })).toBeInTheDocument();
    expect(screen.getByText(/ask the employer to send you a new invitation/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect(screen.getAllByRole('link', { name: 'support@clearpath.example' })[0]).toHaveAttribute(
      'href',
      'mailto:support@clearpath.example',
    );
  });

  it('with a token continues into setup like the invitation link (the token login runs there)', async () => {
    const tokens: (string | null)[] = [];
    server.use(
      http.get('/api/user', ({ request }) => {
        tokens.push(new URL(request.url).searchParams.get('token'));
        return HttpResponse.json({ errorMessage: 'Forbidden' }, { status: 403 });
      }),
    );
    const { router } = renderApp('/register/abc123');
    await expect.poll(() => tokens).toEqual(['abc123']);
    await settled(router);
    expect(router.state.location.pathname).toBe('/login');
  });
});
