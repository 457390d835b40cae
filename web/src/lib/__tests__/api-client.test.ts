import { renderHook } from '@testing-library/react';
import { http, HttpResponse, delay } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCEPT_HEADER, ApiError, api, apiCodes, apiMessages, apiUrl } from '@/lib/api-client';
import { config } from '@/lib/config';
import { currentLoginNotice, setLoginNotice, takeReturnPath, useLoginNotice } from '@/lib/login-notice';
import { setNavigator } from '@/lib/navigation';
import { notifications } from '@/lib/notifications';
import { progress, type ProgressState } from '@/lib/progress';
import { session } from '@/lib/session';
import { logInAs } from '@/testing/render-app';
import { server } from '@/testing/server';
import { tokenResponse, userPayload } from '@/testing/fixtures';
import { cachedCurrentUser, setCurrentUser } from '@/lib/current-user';

const navigate = vi.fn();

beforeEach(() => {
  setNavigator(navigate);
  logInAs(2); // jwt access-1, refresh token refresh-1
});

afterEach(() => {
  navigate.mockReset();
  setLoginNotice(null);
  takeReturnPath();
});

/** Three resources that accept only the refreshed token, recording every Authorization they see. */
function protectedResources() {
  const seen: Record<string, string[]> = { a: [], b: [], c: [] };
  server.use(
    http.get('/api/v2/test/:name', ({ request, params }) => {
      const auth = request.headers.get('Authorization') ?? '';
      seen[params.name as string].push(auth);
      return auth === 'Bearer access-2'
        ? HttpResponse.json({ name: params.name })
        : HttpResponse.json({ errorMessage: 'Unauthorized' }, { status: 401 });
    }),
  );
  return seen;
}

function snackTexts() {
  return notifications.getSnapshot().map((s) => s.text);
}

describe('api client', () => {
  it('sends the Accept header and the bearer token to the configured base URL', async () => {
    let headers: Headers | undefined;
    server.use(
      http.get('/api/v2/user', ({ request }) => {
        headers = request.headers;
        return HttpResponse.json({ ok: true });
      }),
    );
    await api.get('api/v2/user');
    expect(headers?.get('Accept')).toBe(ACCEPT_HEADER);
    expect(headers?.get('Authorization')).toBe('Bearer access-1');
  });

  it('makes exactly one refresh for several concurrent 401s and retries each request once with the new token', async () => {
    const seen = protectedResources();
    const refreshBodies: unknown[] = [];
    server.use(
      http.post('/oauth/access_token', async ({ request }) => {
        refreshBodies.push(await request.json());
        await delay(30);
        return HttpResponse.json(tokenResponse('access-2', 'refresh-2'));
      }),
    );

    const results = await Promise.all([api.get('api/v2/test/a'), api.get('api/v2/test/b'), api.get('api/v2/test/c')]);

    expect(results).toEqual([{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
    expect(refreshBodies).toEqual([
      {
        grant_type: 'refresh_token',
        refresh_token: 'refresh-1',
        client_id: 'portal-spa',
        client_secret: 'portal-spa-secret',
        scope: 'default',
      },
    ]);
    for (const name of ['a', 'b', 'c']) expect(seen[name]).toEqual(['Bearer access-1', 'Bearer access-2']);
    expect(session.get().credentials).toMatchObject({ jwt: 'access-2', refreshToken: 'refresh-2' });
    expect(session.get().loggedIn).toBe(true);
    expect(progress.getSnapshot().inFlight).toBe(0);
  });

  it('a 401 that arrives after another request refreshed retries with the new token without a second refresh', async () => {
    let refreshes = 0;
    let slowCalls = 0;
    server.use(
      http.post('/oauth/access_token', () => {
        refreshes++;
        return HttpResponse.json(tokenResponse('access-2', 'refresh-2'));
      }),
      http.get('/api/v2/test/fast', ({ request }) =>
        request.headers.get('Authorization') === 'Bearer access-2'
          ? HttpResponse.json({ ok: 'fast' })
          : HttpResponse.json({ errorMessage: 'Unauthorized' }, { status: 401 }),
      ),
      http.get('/api/v2/test/slow', async ({ request }) => {
        slowCalls++;
        if (request.headers.get('Authorization') === 'Bearer access-2') return HttpResponse.json({ ok: 'slow' });
        await delay(80); // answers 401 only after the refresh is over
        return HttpResponse.json({ errorMessage: 'Unauthorized' }, { status: 401 });
      }),
    );
    const results = await Promise.all([api.get('api/v2/test/fast'), api.get('api/v2/test/slow')]);
    expect(results).toEqual([{ ok: 'fast' }, { ok: 'slow' }]);
    expect(refreshes).toBe(1);
    expect(slowCalls).toBe(2);
  });

  it('a refresh answered with 401 logs out, resets, goes to /login and shows the login-required error for 6000 ms', async () => {
    const seen = protectedResources();
    let refreshes = 0;
    server.use(
      http.post('/oauth/access_token', async () => {
        refreshes++;
        await delay(20);
        return HttpResponse.json(
          {
            error: 'invalid_grant',
            errorMessage: 'The refresh token is invalid.',
            message: 'The refresh token is invalid.',
          },
          { status: 401 },
        );
      }),
    );

    const outcomes = await Promise.allSettled([
      api.get('api/v2/test/a'),
      api.get('api/v2/test/b'),
      api.get('api/v2/test/c'),
    ]);

    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(refreshes).toBe(1);
    for (const name of ['a', 'b', 'c']) expect(seen[name]).toEqual(['Bearer access-1']);
    expect(session.get()).toMatchObject({ loggedIn: false, credentials: { jwt: null, refreshToken: null } });
    expect(cachedCurrentUser()).toBeUndefined();
    expect(navigate).toHaveBeenCalledWith('/login');
    // On the login page, where it stays until a login: not in a snackbar that leaves by itself.
    expect(currentLoginNotice()).toBe(apiMessages.invalidLogin);
    expect(notifications.getSnapshot()).toEqual([]);
  });

  it('a retried request that gets 401 again is not refreshed twice: logout with the login-required error', async () => {
    let refreshes = 0;
    server.use(
      http.get('/api/v2/test/always-401', () => HttpResponse.json({ errorMessage: 'Unauthorized' }, { status: 401 })),
      http.post('/oauth/access_token', () => {
        refreshes++;
        return HttpResponse.json(tokenResponse('access-2', 'refresh-2'));
      }),
    );
    await expect(api.get('api/v2/test/always-401')).rejects.toBeInstanceOf(ApiError);
    expect(refreshes).toBe(1);
    expect(session.get().loggedIn).toBe(false);
    expect(navigate).toHaveBeenCalledWith('/login');
    expect(currentLoginNotice()).toBe(apiMessages.invalidLogin);
  });

  it('a forced logout remembers the page it interrupted, for the login to return to once', async () => {
    window.history.pushState({}, '', '/personal?step=2');
    session.setCredentials({ refreshToken: null });
    server.use(http.get('/api/v2/test/x', () => HttpResponse.json({ errorMessage: 'Unauthorized' }, { status: 401 })));
    await expect(api.get('api/v2/test/x')).rejects.toMatchObject({ status: 401 });
    expect(takeReturnPath()).toBe('/personal?step=2');
    expect(takeReturnPath()).toBeNull();
    window.history.pushState({}, '', '/');
  });

  it('a 401 without a refresh token logs out with the login-required error', async () => {
    session.setCredentials({ refreshToken: null });
    server.use(http.get('/api/v2/test/x', () => HttpResponse.json({ errorMessage: 'Unauthorized' }, { status: 401 })));
    await expect(api.get('api/v2/test/x')).rejects.toMatchObject({ status: 401 });
    expect(session.get().credentials.jwt).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login');
    expect(currentLoginNotice()).toBe(apiMessages.invalidLogin);
  });

  describe('a setup session (token login, no password yet) whose credential expired', () => {
    /** What a token login leaves: a setup credential, no refresh token, not logged in, the invitation token kept. */
    function setupSession(hasPassword = false) {
      setCurrentUser(userPayload(0, { hasPassword }));
      session.set({
        loggedIn: false,
        invitationToken: 'invite-1',
        credentials: { ...session.get().credentials, jwt: 'setup-1', refreshToken: null },
      });
    }
    afterEach(() => setLoginNotice(null));

    it('gets a new setup credential from the invitation once, and retries every request with it', async () => {
      setupSession();
      const logins: string[] = [];
      server.use(
        http.get('/api/user', async ({ request }) => {
          logins.push(new URL(request.url).searchParams.get('token') ?? '');
          await delay(20);
          return HttpResponse.json({
            ...userPayload(0, { hasPassword: false }),
            access_token: 'setup-2',
            token_type: 'Bearer',
            expires_in: 1800,
            scope: 'setup',
          });
        }),
        http.get('/api/v2/test/:name', ({ request, params }) =>
          request.headers.get('Authorization') === 'Bearer setup-2'
            ? HttpResponse.json({ name: params.name })
            : HttpResponse.json({ errorMessage: 'Unauthorized' }, { status: 401 }),
        ),
      );
      const answers = await Promise.all([api.get('api/v2/test/a'), api.get('api/v2/test/b')]);
      expect(answers).toEqual([{ name: 'a' }, { name: 'b' }]);
      expect(logins).toEqual(['invite-1']);
      expect(session.get().credentials.jwt).toBe('setup-2');
      expect(navigate).not.toHaveBeenCalled();
      expect(snackTexts()).toEqual([]);
    });

    it.each([
      { hasPassword: true, notice: apiMessages.setupEndedLogIn },
      { hasPassword: false, notice: apiMessages.setupEndedInvitationGone },
    ])(
      'when the invitation is gone (password created: $hasPassword), the login page says so plainly',
      async ({ hasPassword, notice }) => {
        setupSession(hasPassword);
        server.use(
          http.get('/api/user', () => HttpResponse.json({ errorMessage: 'Forbidden' }, { status: 403 })),
          http.get('/api/v2/test/x', () => HttpResponse.json({ errorMessage: 'Unauthorized' }, { status: 401 })),
        );
        await expect(api.get('api/v2/test/x')).rejects.toMatchObject({ status: 401 });
        expect(navigate).toHaveBeenCalledWith('/login');
        expect(session.get().credentials.jwt).toBeNull();
        expect(session.get().invitationToken).toBeNull();
        expect(renderHook(() => useLoginNotice()).result.current).toBe(notice);
        // Not the generic "You must login" toast: the page explains it.
        expect(snackTexts()).toEqual([]);
      },
    );
  });

  it('leaves incorrect credentials (by their code, in any language) to the caller: no logout, no message', async () => {
    const spanish = 'Las credenciales del usuario no son correctas.';
    server.use(
      http.post('/oauth/access_token', () =>
        HttpResponse.json(
          {
            error: 'invalid_grant',
            errorCode: apiCodes.credentialsIncorrect,
            errorMessage: spanish,
            message: spanish,
          },
          { status: 401 },
        ),
      ),
    );
    await expect(api.post('oauth/access_token', { grant_type: 'password' })).rejects.toMatchObject({
      status: 401,
      errorCode: apiCodes.credentialsIncorrect,
      errorMessage: spanish,
    });
    expect(session.get().loggedIn).toBe(true);
    expect(navigate).not.toHaveBeenCalled();
    expect(snackTexts()).toEqual([]);
  });

  it('another 401 from the token endpoint logs out silently and goes to /login', async () => {
    server.use(
      http.post('/oauth/access_token', () =>
        HttpResponse.json({ error: 'invalid_client', errorMessage: 'Client authentication failed.' }, { status: 401 }),
      ),
    );
    await expect(api.post('oauth/access_token', { grant_type: 'password' })).rejects.toMatchObject({ status: 401 });
    expect(session.get().loggedIn).toBe(false);
    expect(navigate).toHaveBeenCalledWith('/login');
    expect(snackTexts()).toEqual([]);
  });

  it('a 401 from the token endpoint while logging out does not force a second logout', async () => {
    session.set({ isLogoutInitiated: true, loggedIn: false });
    server.use(
      http.delete('/oauth/access_token', () => HttpResponse.json({ errorMessage: 'Unauthorized' }, { status: 401 })),
    );
    await expect(api.delete('oauth/access_token')).rejects.toMatchObject({ status: 401 });
    expect(navigate).not.toHaveBeenCalled();
    expect(session.get().credentials.jwt).toBe('access-1');
  });

  it('shows the access-denied message on 403 and rejects with the server error', async () => {
    server.use(
      http.get('/api/v2/test/secret', () => HttpResponse.json({ errorMessage: 'Forbidden' }, { status: 403 })),
    );
    await expect(api.get('api/v2/test/secret')).rejects.toMatchObject({ status: 403, errorMessage: 'Forbidden' });
    expect(notifications.getSnapshot()).toEqual([
      expect.objectContaining({ text: apiMessages.accessDenied, kind: 'error' }),
    ]);
    expect(session.get().loggedIn).toBe(true);
  });

  it('passes validation errors with their fields and the Retry-After of 429 to the caller', async () => {
    server.use(
      http.post('/api/v2/test/form', () =>
        HttpResponse.json(
          { errorMessage: 'validation error', errorFields: [{ field: 'password', message: 'Password is too short.' }] },
          { status: 422 },
        ),
      ),
      http.get('/api/v2/test/busy', () =>
        HttpResponse.json({ errorMessage: 'Too many attempts.' }, { status: 429, headers: { 'Retry-After': '30' } }),
      ),
    );
    await expect(api.post('api/v2/test/form', {})).rejects.toMatchObject({
      status: 422,
      errorMessage: 'validation error',
      errorFields: [{ field: 'password', message: 'Password is too short.' }],
    });
    await expect(api.get('api/v2/test/busy')).rejects.toMatchObject({ status: 429, retryAfter: '30' });
  });

  it('a 401 that is refreshed and retried successfully does not mark the progress bar failed', async () => {
    protectedResources();
    server.use(http.post('/oauth/access_token', () => HttpResponse.json(tokenResponse('access-2', 'refresh-2'))));
    const states: ProgressState[] = [];
    const unsubscribe = progress.subscribe(() => states.push(progress.getSnapshot()));
    try {
      await expect(api.get('api/v2/test/a')).resolves.toEqual({ name: 'a' });
    } finally {
      unsubscribe();
    }
    // One run from start to success: never failed, and not finished in between (the bar would flash).
    expect(states).toEqual([
      { inFlight: 1, failed: false },
      { inFlight: 0, failed: false },
    ]);
  });

  it('a 401 whose refresh fails marks the progress bar failed', async () => {
    protectedResources();
    server.use(
      http.post('/oauth/access_token', () =>
        HttpResponse.json({ error: 'invalid_grant', errorMessage: 'The refresh token is invalid.' }, { status: 401 }),
      ),
    );
    await expect(api.get('api/v2/test/a')).rejects.toMatchObject({ status: 401 });
    expect(progress.getSnapshot()).toEqual({ inFlight: 0, failed: true });
  });

  it('leaves a 403 to the caller without the access-denied message when asked to (silentForbidden)', async () => {
    server.use(
      http.get('/api/v2/test/secret', () => HttpResponse.json({ errorMessage: 'Forbidden' }, { status: 403 })),
    );
    await expect(api.get('api/v2/test/secret', { silentForbidden: true })).rejects.toMatchObject({ status: 403 });
    expect(snackTexts()).toEqual([]);
  });

  it('sends every call, the refresh included, under a non-default base URL', async () => {
    const originalBase = config.apiBaseUrl;
    config.apiBaseUrl = '/portal/';
    try {
      const seen: string[] = [];
      server.use(
        http.get('/portal/api/v2/test/:name', ({ request, params }) => {
          seen.push(`${new URL(request.url).pathname} ${request.headers.get('Authorization')}`);
          return request.headers.get('Authorization') === 'Bearer access-2'
            ? HttpResponse.json({ name: params.name })
            : HttpResponse.json({ errorMessage: 'Unauthorized' }, { status: 401 });
        }),
        http.post('/portal/oauth/access_token', () => HttpResponse.json(tokenResponse('access-2', 'refresh-2'))),
      );
      await expect(api.get('/api/v2/test/a', { query: { page: 2, skip: undefined } })).resolves.toEqual({ name: 'a' });
      expect(seen).toEqual(['/portal/api/v2/test/a Bearer access-1', '/portal/api/v2/test/a Bearer access-2']);
      expect(session.get().credentials.jwt).toBe('access-2');
    } finally {
      config.apiBaseUrl = originalBase;
    }
  });

  it('builds URLs under a base URL with or without its trailing slash, and under an absolute one', () => {
    const originalBase = config.apiBaseUrl;
    try {
      for (const base of ['/portal/', '/portal']) {
        config.apiBaseUrl = base;
        expect(apiUrl('api/v2/user', { token: 'a b' })).toBe(`${window.location.origin}/portal/api/v2/user?token=a+b`);
        expect(apiUrl('/oauth/access_token')).toBe(`${window.location.origin}/portal/oauth/access_token`);
      }
      config.apiBaseUrl = 'https://api.example.com/v2-portal/';
      expect(apiUrl('api/v2/user')).toBe('https://api.example.com/v2-portal/api/v2/user');
    } finally {
      config.apiBaseUrl = originalBase;
    }
  });

  it('counts requests in flight for the progress bar and marks the run failed on an error', async () => {
    server.use(
      http.get('/api/v2/test/slow-ok', async () => {
        await delay(20);
        return HttpResponse.json({});
      }),
      http.get('/api/v2/test/broken', () => HttpResponse.json({ errorMessage: 'boom' }, { status: 500 })),
    );
    const pending = Promise.allSettled([api.get('api/v2/test/slow-ok'), api.get('api/v2/test/broken')]);
    expect(progress.getSnapshot()).toEqual({ inFlight: 2, failed: false });
    await pending;
    expect(progress.getSnapshot()).toEqual({ inFlight: 0, failed: true });
  });
});
