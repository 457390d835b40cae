import { act, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { IDV_SESSION_STORAGE_KEY, idvFrameUrl } from '@/features/idv/api/idv-session';
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
