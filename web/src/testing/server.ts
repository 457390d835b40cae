// The mock server of the unit tests. Any request without a handler fails the
// request (onUnhandledRequest: 'error' in setup.ts).
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { companySettings, tokenResponse, userPayload } from './fixtures';

export const defaultHandlers = [
  http.post('/oauth/access_token', () => HttpResponse.json(tokenResponse())),
  http.delete('/oauth/access_token', () => new HttpResponse(null, { status: 204 })),
  http.get('/api/v2/user', () => HttpResponse.json(userPayload(2))),
  http.get('/api/settings/company/:id', () => HttpResponse.json(companySettings())),
  http.get('/api/v2/banner/active', () => HttpResponse.json({ payload: { banner: null } })),
];

export const server = setupServer(...defaultHandlers);
