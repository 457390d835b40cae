import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { IDV_SESSION_STORAGE_KEY } from '@/features/idv/api/idv-session';
import { DECISION_WAIT_MS } from '@/features/idv/components/idv-success-page';
import { companySettings, userPayload } from '@/testing/fixtures';
import { logInAs, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';
import type { UserPayload } from '@/types/api';

function session(id: string, status: number, decision: string | null = null) {
  return { id, env: 'sandbox', status, statusText: '', decision, expiresAt: '2030-01-01T00:00:00Z' };
}

/** GET answers `status` for any id (the ids asked are kept); POST status answers the user in the status posted. */
function mock(status: number, decision: string | null = null, user: (statusId: number) => UserPayload = userPayload) {
  const asked: string[] = [];
  const moves: unknown[] = [];
  let current = 3;
  server.use(
    http.get('/api/v2/idv/session/:id', ({ params }) => {
      asked.push(String(params.id));
      return HttpResponse.json(session(String(params.id), status, decision));
    }),
    http.post('/api/v2/user/subject/status', async ({ request }) => {
      const body = (await request.json()) as { statusId: number };
      moves.push(body);
      current = body.statusId;
      return HttpResponse.json(user(current));
    }),
    http.get('/api/v2/user', () => HttpResponse.json(user(current))),
    // What the next pages read (self-pay, the collection site, home).
    http.get('/api/v2/payment', () =>
      HttpResponse.json({ required: true, amount: '25.00', currency: 'USD', exemptState: null, authorization: null }),
    ),
    http.get('/api/v2/user/collection-site', () =>
      HttpResponse.json({ site: null, chosenAt: null, collectedAt: null, changeable: false }),
    ),
    http.get('/api/v2/collection-sites', () =>
      HttpResponse.json({ origin: null, radius: 25, sites: [] }, { status: 200 }),
    ),
    http.put('/api/v2/idv/session', () => HttpResponse.json({ ...session('idv_new', 0), token: 'new-token' })),
  );
  return { asked, moves };
}

/** An applicant for whom the server decided whether they choose the site, whether they owe a hold, and where verification leads. */
function decided(siteSelection: boolean, owed: boolean, statusAfterIdv: number) {
  return (statusId: number): UserPayload => ({
    ...userPayload(statusId, { applicantCollectionSiteSelection: siteSelection }),
    finalization: { paymentRequired: owed, statusAfterIdv: { statusId: statusAfterIdv, statusText: '' } },
  });
}

describe('/idv/success', () => {
  it('approved: records the move at once, says "Identity verified" and what follows, and Continue goes to /self-pay', async () => {
    const { asked, moves } = mock(2, 'approved');
    logInAs(3);
    const { router, user } = renderApp('/idv/success?session=idv_abc');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Identity verified' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(asked[0]).toBe('idv_abc');
    // On the server already, so a closed tab does not ask for a second verification.
    expect(moves).toEqual([{ statusId: 7 }]);
    const next = screen.getByRole('region', { name: 'What happens next' });
    expect(within(next).getByText('Pay for your screening: a hold of $25.00 on your card.')).toBeVisible();
    expect(within(next).queryByText(/collection site/)).not.toBeInTheDocument();
    // The page stays until the applicant moves on.
    expect(router.state.location.pathname).toBe('/idv/success');

    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await expect.poll(() => router.state.location.pathname).toBe('/self-pay');
    expect(await screen.findByRole('heading', { level: 1, name: 'Pay for your screening' })).toBeInTheDocument();
    expect(moves).toEqual([{ statusId: 7 }]);
    expect(sessionStorage.getItem(IDV_SESSION_STORAGE_KEY)).toBeNull();
  });

  it('approved with the site to choose: names the site and the payment, and Continue goes to /collection-site', async () => {
    const user = decided(true, true, 6);
    const { moves } = mock(2, 'approved', user);
    logInAs(3, { payload: user(3), settings: companySettings({ company_applicant_collection_site_selection: true }) });
    const { router, user: clicks } = renderApp('/idv/success?session=idv_abc');
    await screen.findByRole('heading', { level: 1, name: 'Identity verified' });
    expect(moves).toEqual([{ statusId: 6 }]);
    const steps = within(screen.getByRole('region', { name: 'What happens next' })).getAllByRole('listitem');
    expect(steps.map((step) => step.textContent)).toEqual([
      'Choose a collection site for your drug test.',
      'Pay for your screening: a hold of $25.00 on your card.',
      'Then your part is done, and the screening goes on.',
    ]);
    await clicks.click(screen.getByRole('button', { name: 'Continue' }));
    await expect.poll(() => router.state.location.pathname).toBe('/collection-site');
  });

  it('approved with nothing owed: says nothing else follows, and Continue goes home', async () => {
    const user = decided(false, false, 2);
    const { moves } = mock(3, 'approved', user);
    logInAs(3, { payload: user(3) });
    const { router, user: clicks } = renderApp('/idv/success?session=idv_abc');
    await screen.findByRole('heading', { level: 1, name: 'Identity verified' });
    expect(moves).toEqual([{ statusId: 2 }]);
    expect(screen.getByText(/Nothing else: your part is done/)).toBeVisible();
    await clicks.click(screen.getByRole('button', { name: 'Continue' }));
    await expect.poll(() => router.state.location.pathname).toBe('/');
  });

  it('finished but undecided: asks again until the provider decides, then says "Identity verified"', async () => {
    const { moves } = mock(1);
    let asked = 0;
    server.use(
      http.get('/api/v2/idv/session/:id', () =>
        HttpResponse.json(asked++ < 1 ? session('idv_abc', 1) : session('idv_abc', 2, 'approved')),
      ),
    );
    logInAs(3);
    renderApp('/idv/success?session=idv_abc');
    expect(await screen.findAllByText('Your photos are being checked. This takes a few seconds…')).not.toHaveLength(0);
    expect(moves).toEqual([]);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Identity verified' }, { timeout: 4000 }),
    ).toBeVisible();
    expect(moves).toEqual([{ statusId: 7 }]);
  });

  it('still undecided after the wait: moves on without promising a result ("Verification sent")', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const { moves } = mock(1);
      logInAs(3);
      renderApp('/idv/success?session=idv_abc');
      await screen.findAllByText('Your photos are being checked. This takes a few seconds…');
      await act(async () => {
        await vi.advanceTimersByTimeAsync(DECISION_WAIT_MS);
      });
      expect(await screen.findByRole('heading', { level: 1, name: 'Verification sent' })).toBeVisible();
      expect(screen.queryByText('Identity verified')).not.toBeInTheDocument();
      expect(moves).toEqual([{ statusId: 7 }]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads the session kept when verification started when the address has none', async () => {
    const { asked } = mock(0);
    sessionStorage.setItem(IDV_SESSION_STORAGE_KEY, 'idv_kept');
    logInAs(3);
    renderApp('/idv/success');
    expect(await screen.findByText('Your verification is still in progress')).toBeInTheDocument();
    expect(asked).toEqual(['idv_kept']);
  });

  it('active: says it is still in progress and goes back to /idv', async () => {
    const { moves } = mock(0);
    logInAs(3);
    const { router, user } = renderApp('/idv/success?session=idv_abc');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Your verification is still in progress' });
    await waitFor(() => expect(heading).toHaveFocus());
    await user.click(screen.getByRole('button', { name: 'Back to verification' }));
    await expect.poll(() => router.state.location.pathname).toBe('/idv');
    expect(moves).toEqual([]);
  });

  it('expired: explains and starts a new session', async () => {
    const { moves } = mock(4);
    sessionStorage.setItem(IDV_SESSION_STORAGE_KEY, 'idv_abc');
    logInAs(3);
    const { router, user } = renderApp('/idv/success?session=idv_abc');
    expect(await screen.findByText('Your verification session ended')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Start a new verification' }));
    await expect.poll(() => router.state.location.pathname).toBe('/idv');
    expect(await screen.findByTitle('Identity verification')).toHaveAttribute(
      'src',
      '/sandbox/idv/idv_new?token=new-token',
    );
    expect(sessionStorage.getItem(IDV_SESSION_STORAGE_KEY)).toBe('idv_new');
    expect(moves).toEqual([]);
  });

  it('declined: says what to do, with a way to try again and whom to ask', async () => {
    const { moves } = mock(2, 'declined');
    logInAs(3);
    const { router, user } = renderApp('/idv/success?session=idv_abc');
    expect(await screen.findByText('We could not verify your identity')).toBeInTheDocument();
    expect(screen.getByText('Use a valid, unexpired government photo ID.')).toBeInTheDocument();
    expect(screen.getByText(/contact support at support@clearpath\.example/)).toBeInTheDocument();
    expect(moves).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await expect.poll(() => router.state.location.pathname).toBe('/idv');
  });

  it("409 on the move: shows the server's message, and Reload goes where the server's status says", async () => {
    mock(2, 'approved');
    let refused = true;
    server.use(
      http.post('/api/v2/user/subject/status', () =>
        refused
          ? HttpResponse.json({ errorMessage: 'The status cannot move to Self-pay required now.' }, { status: 409 })
          : HttpResponse.json(userPayload(7)),
      ),
    );
    logInAs(3);
    const { router, user } = renderApp('/idv/success?session=idv_abc');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The status cannot move to Self-pay required now.');
    expect(router.state.location.pathname).toBe('/idv/success');
    refused = false;
    await user.click(screen.getByRole('button', { name: 'Reload' }));
    await screen.findByRole('heading', { level: 1, name: 'Identity verified' });
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await expect.poll(() => router.state.location.pathname).toBe('/self-pay');
  });

  it('without any session: explains and goes back to verification', async () => {
    mock(0);
    logInAs(3);
    const { router, user } = renderApp('/idv/success');
    expect(await screen.findByText('No verification to check')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back to verification' }));
    await expect.poll(() => router.state.location.pathname).toBe('/idv');
  });

  it('a session that cannot be read: the message and a way to ask again', async () => {
    mock(0);
    let fail = true;
    server.use(
      http.get('/api/v2/idv/session/:id', () =>
        fail ? HttpResponse.json({ errorMessage: 'Not found' }, { status: 404 }) : HttpResponse.json(session('x', 0)),
      ),
    );
    logInAs(3);
    const { user } = renderApp('/idv/success?session=x');
    expect(await screen.findByText('Error fetching IDV session')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Your verification is still in progress')).toBeInTheDocument();
  });
});
