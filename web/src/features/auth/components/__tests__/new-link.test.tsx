import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp, settled } from '@/testing/render-app';
import { server } from '@/testing/server';

type Renewal = { kind?: string; token?: string; email?: string };

/** The link's state as GET /api/v2/links/status gives it, and every POST /api/v2/links/renew body. */
function linkServer(state: string) {
  const renewals: Renewal[] = [];
  server.use(
    http.get('/api/v2/links/status', () => HttpResponse.json({ state })),
    http.post('/api/v2/links/renew', async ({ request }) => {
      renewals.push((await request.json()) as Renewal);
      return HttpResponse.json({ message: 'sent' }, { status: 202 });
    }),
  );
  return renewals;
}

describe('/new-link', () => {
  it.each([
    ['invitation', 'expired', 'Your invitation link no longer works', /This invitation link has expired\./],
    ['invitation', 'used', 'Your invitation link no longer works', /already used to create a password/],
    ['reset', 'expired', 'Your password reset link no longer works', /Reset links work for 1 hour\./],
    ['reset', 'used', 'Your password reset link no longer works', /Each link works once\./],
  ])('a %s link that is %s says so, with focus on the title', async (kind, state, title, explanation) => {
    linkServer(state);
    const app = renderApp(`/new-link?kind=${kind}&token=tok-123`);
    await settled(app.router);
    expect(await screen.findByText(explanation)).toBeInTheDocument();
    // Focus follows the page's paint (lib/focus-title.ts loads its module lazily): waited for.
    const heading = screen.getByRole('heading', { level: 1, name: title });
    await waitFor(() => expect(heading).toHaveFocus());
  });

  it('sends a new link for the link it holds, to the address on file, and says so', async () => {
    const renewals = linkServer('expired');
    const app = renderApp('/new-link?kind=invitation&token=tok-123');
    await settled(app.router);
    await app.user.click(await screen.findByRole('button', { name: 'Send me a new link' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Check your e-mail' })).toHaveFocus();
    expect(screen.getByRole('status')).toHaveTextContent(/on its way to the e-mail address we have on file/);
    expect(renewals).toEqual([{ kind: 'invitation', token: 'tok-123' }]);
  });

  it('without a link asks for the address, checks it next to the field, and answers the same for any', async () => {
    const renewals = linkServer('unknown');
    const app = renderApp('/new-link');
    await settled(app.router);
    const heading = await screen.findByRole('heading', { level: 1, name: 'Get a new link' });
    await waitFor(() => expect(heading).toHaveFocus());
    const send = screen.getByRole('button', { name: 'Send me a new link' });
    await app.user.click(send);
    const field = screen.getByLabelText('E-mail');
    expect(field).toHaveAccessibleDescription(/Enter your e-mail address/);
    expect(field).toHaveFocus();
    await app.user.type(field, 'jane@');
    await app.user.click(send);
    expect(field).toHaveAccessibleDescription(/in the correct format/);
    expect(renewals).toEqual([]);
    await app.user.type(field, 'example.com');
    await app.user.click(send);
    expect(await screen.findByRole('status')).toHaveTextContent(/If we know this address/);
    expect(renewals).toEqual([{ kind: 'invitation', email: 'jane@example.com' }]);
  });

  it('a link that still works says so in the title and offers to continue with it', async () => {
    linkServer('valid');
    const app = renderApp('/new-link?kind=reset&token=tok-123');
    await settled(app.router);
    expect(await screen.findByRole('heading', { level: 1, name: 'Your link still works' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Continue with this link' })).toHaveAttribute(
      'href',
      '/reset?token=tok-123',
    );
  });

  it('an unknown link asks for the address too', async () => {
    linkServer('unknown');
    const app = renderApp('/new-link?kind=invitation&token=tok-123');
    await settled(app.router);
    expect(await screen.findByText(/We don't recognise this link\./)).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toBeInTheDocument();
  });
});
