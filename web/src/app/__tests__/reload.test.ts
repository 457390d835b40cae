import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { cachedCurrentUser } from '@/lib/current-user';
import { queryClient } from '@/lib/query-client';
import { session } from '@/lib/session';
import { userPayload } from '@/testing/fixtures';
import { createTestRouter, logInAs, settled } from '@/testing/render-app';
import { server } from '@/testing/server';

describe('a reload', () => {
  it('keeps the applicant logged in: the session keeps the credential, the guards fetch the user the cache lost', async () => {
    logInAs(1);
    // A reload empties the query cache; sessionStorage keeps the session.
    queryClient.clear();
    let bearer: string | null = null;
    server.use(
      http.get('/api/v2/user', ({ request }) => {
        bearer = request.headers.get('Authorization');
        return HttpResponse.json(userPayload(1));
      }),
    );
    const router = createTestRouter('/profile');
    await settled(router);
    expect(router.state.location.pathname).toBe('/profile');
    expect(bearer).toBe('Bearer access-1');
    expect(session.get().loggedIn).toBe(true);
    expect(cachedCurrentUser()?.subject.status.statusId).toBe(1);
  });

  it('sends a logged-in applicant from /login to the page of the status the server gives', async () => {
    logInAs(2);
    queryClient.clear();
    server.use(http.get('/api/v2/user', () => HttpResponse.json(userPayload(1))));
    const router = createTestRouter('/login');
    await settled(router);
    expect(router.state.location.pathname).toBe('/profile');
  });
});
