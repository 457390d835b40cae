import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { IDV_SESSION_STORAGE_KEY, idvFrameUrl } from '@/features/idv/api/idv-session';
import { frameHeightOf } from '@/features/idv/components/idv-page';
import { userPayload } from '@/testing/fixtures';
import { logInAs, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

const CREATE_FAILED = 'IdentitySource session could not be created. Please contact customer support for assistance.';

function session(id: string, status = 0, decision: string | null = null) {
  return {
    id,
    env: 'sandbox',
    status,
    statusText: ['active', 'completedByUser', 'checkCompleted', 'dataCompleted', 'expired'][status],
    decision,
    expiresAt: '2030-01-01T00:00:00Z',
  };
}

/** The server's answers: PUT starts `id` (body kept in `sent`), GET answers it with `status`. */
function mockIdv(id = 'idv_abc', token = 'tok/en 1', status = 0) {
  const sent: unknown[] = [];
  server.use(
    http.put('/api/v2/idv/session', async ({ request }) => {
      sent.push(await request.json());
      return HttpResponse.json({ ...session(id), token });
    }),
    http.get('/api/v2/idv/session/:id', ({ params }) => HttpResponse.json(session(String(params.id), status))),
    http.get('/api/v2/user', () => HttpResponse.json(userPayload(3))),
  );
  return sent;
}

const frame = () => screen.findByTitle('Identity verification');

function post(origin: string, data: unknown) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { origin, data }));
  });
}

describe('/idv', () => {
  it("starts a session for the applicant and frames the provider's page built from the template", async () => {
    const sent = mockIdv();
    logInAs(3);
    renderApp('/idv');
    const iframe = await frame();
    expect(iframe).toHaveAttribute('src', '/sandbox/idv/idv_abc?token=tok%2Fen%201');
    expect(iframe.getAttribute('allow')).toContain('camera');
    expect(sent).toEqual([{ subjectId: 7 }]);
    expect(sessionStorage.getItem(IDV_SESSION_STORAGE_KEY)).toBe('idv_abc');
    expect(screen.getByText('Sandbox verification: no real identity check happens.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Verify your identity' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'I have finished' })).toHaveAttribute(
      'href',
      '/idv/success?session=idv_abc',
    );
  });

  it('says what follows verification for this applicant: the site and the payment, as the server decided', async () => {
    mockIdv();
    const payload = userPayload(3, { applicantCollectionSiteSelection: true });
    server.use(http.get('/api/v2/user', () => HttpResponse.json(payload)));
    logInAs(3, { payload });
    renderApp('/idv');
    const after = await screen.findByRole('region', { name: 'After this step' });
    expect(
      within(after)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Choose a collection site for your drug test.',
      'Pay for your screening: a hold of $25.00 on your card.',
      'Then your part is done, and the screening goes on.',
    ]);
    expect(screen.queryByText(/last step/i)).not.toBeInTheDocument();
  });

  it('says verification is the last step only when nothing follows it', async () => {
    mockIdv();
    const payload = {
      ...userPayload(3),
      finalization: { paymentRequired: false, statusAfterIdv: { statusId: 2, statusText: '' } },
    };
    server.use(http.get('/api/v2/user', () => HttpResponse.json(payload)));
    logInAs(3, { payload });
    renderApp('/idv');
    const after = await screen.findByRole('region', { name: 'After this step' });
    expect(after).toHaveTextContent('Nothing else: once your identity is verified, your part is done');
    expect(within(after).queryByRole('listitem')).not.toBeInTheDocument();
  });

  it("makes the frame as tall as the provider's page asks (never below 600 px), from the frame's origin only", async () => {
    mockIdv();
    logInAs(3);
    renderApp('/idv');
    const iframe = await frame();
    expect(iframe.style.height).toBe('');
    post('https://evil.example', { type: 'idv:height', height: 3000 });
    expect(iframe.style.height).toBe('');
    post(window.location.origin, { type: 'idv:height', height: 912.4 });
    expect(iframe.style.height).toBe('913px');
    post(window.location.origin, { type: 'idv:height', height: 300 });
    expect(iframe.style.height).toBe('600px');
    expect(frameHeightOf({ type: 'idv:height', height: 1e9 })).toBe(4000);
    expect(frameHeightOf({ type: 'idv:height', height: '700' })).toBeNull();
  });

  it('fills any template, encoding the id and token', () => {
    expect(idvFrameUrl({ id: 'a b', token: 'x&y=z' }, 'https://verify.example/s/{id}/start?t={token}&again={id}')).toBe(
      'https://verify.example/s/a%20b/start?t=x%26y%3Dz&again=a%20b',
    );
  });

  it('goes to /idv/success on a finished message from the frame, and ignores one from another origin', async () => {
    mockIdv();
    logInAs(3);
    const { router } = renderApp('/idv');
    await frame();
    post('https://evil.example', { type: 'idv:finished', sessionId: 'idv_abc' });
    post(window.location.origin, { type: 'something-else', sessionId: 'idv_abc' });
    post(window.location.origin, { type: 'idv:finished', sessionId: 'idv_other' });
    expect(router.state.location.pathname).toBe('/idv');

    post(window.location.origin, { type: 'idv:finished', sessionId: 'idv_abc' });
    await expect.poll(() => router.state.location.pathname).toBe('/idv/success');
    expect(router.state.location.search).toBe('?session=idv_abc');
  });

  it('goes to /idv/success when the session is no longer active, without a message', async () => {
    mockIdv('idv_abc', 'tok', 0);
    let asked = 0;
    server.use(http.get('/api/v2/idv/session/:id', () => HttpResponse.json(session('idv_abc', asked++ === 0 ? 1 : 4))));
    logInAs(3);
    const { router } = renderApp('/idv');
    await expect.poll(() => router.state.location.pathname).toBe('/idv/success');
    expect(router.state.location.search).toBe('?session=idv_abc');
    // The return page asks again rather than trusting what the poll saw.
    expect(await screen.findByText('Your verification session ended')).toBeInTheDocument();
  });

  it('shows the spec message when the session cannot be created, and tries again', async () => {
    let fail = true;
    mockIdv();
    server.use(
      http.put('/api/v2/idv/session', () =>
        fail
          ? HttpResponse.json({ errorMessage: 'upstream down' }, { status: 502 })
          : HttpResponse.json({ ...session('idv_abc'), token: 't' }),
      ),
    );
    logInAs(3);
    const { user } = renderApp('/idv');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(CREATE_FAILED);
    await waitFor(() => expect(alert).toHaveFocus());
    expect(screen.queryByTitle('Identity verification')).not.toBeInTheDocument();

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await frame()).toHaveAttribute('src', '/sandbox/idv/idv_abc?token=t');
  });

  it('shows the same message for a refusal that is not the provider', async () => {
    mockIdv();
    server.use(http.put('/api/v2/idv/session', () => HttpResponse.json({ errorMessage: 'Conflict' }, { status: 409 })));
    logInAs(3);
    renderApp('/idv');
    expect(await screen.findByText(CREATE_FAILED)).toBeInTheDocument();
  });

  it("says when to come back after too many sessions today (429): the server's message, not the provider's", async () => {
    mockIdv();
    const limit = 'You have started identity verification too many times today. Please try again tomorrow.';
    server.use(http.put('/api/v2/idv/session', () => HttpResponse.json({ errorMessage: limit }, { status: 429 })));
    logInAs(3);
    renderApp('/idv');
    expect(await screen.findByRole('alert')).toHaveTextContent(limit);
    expect(screen.queryByText(CREATE_FAILED)).not.toBeInTheDocument();
  });
});
