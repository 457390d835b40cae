// The mock server of the unit tests. Any request without a handler fails the
// test (setup.ts collects unhandled requests and fails the test after it).
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import {
  companySettings,
  documentContent,
  legalDocuments,
  lookups,
  preparation,
  subjectData,
  subjectRead,
  tokenResponse,
  userPayload,
} from './fixtures';

const idvSession = {
  id: 'idv_1',
  env: 'sandbox',
  status: 0,
  statusText: 'active',
  decision: null,
  expiresAt: '2030-01-01T00:00:00Z',
};

/** The applicant event stream (api/v2/user/events), one that says it is ready and stays open until the app leaves (aborts). */
export function userEventStream(events = 'retry: 3000\nevent: ready\ndata: {"chat": true, "unreadMessages": 0}\n\n') {
  return new HttpResponse(
    new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(events));
      },
    }),
    { headers: { 'Content-Type': 'text/event-stream' } },
  );
}

/**
 * An applicant event stream the test writes to, as the server would: `ready` first with the given
 * data, then each `push(event, data)`. Installed on the shared server (call after its setup).
 */
export function liveUserEvents(ready = '{"chat": true, "unreadMessages": 0}') {
  let write: (text: string) => void = () => undefined;
  server.use(
    http.get('/api/v2/user/events', () => {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          write = (text) => controller.enqueue(new TextEncoder().encode(text));
          write(`retry: 3000\nevent: ready\ndata: ${ready}\n\n`);
        },
      });
      return new HttpResponse(stream, { headers: { 'Content-Type': 'text/event-stream' } });
    }),
  );
  return { push: (event: string, data: string) => write(`event: ${event}\ndata: ${data}\n\n`) };
}

/**
 * The server's drafts (api/v2/user/drafts), kept in the returned map by form as the server would:
 * a PUT merges its fields (null removes one), a DELETE discards. Installed on the shared server.
 */
export function fakeDrafts(initial: Record<string, Record<string, unknown>> = {}) {
  const drafts = new Map(Object.entries(initial));
  const puts: Array<{ form: string; fields: Record<string, unknown> }> = [];
  const at = '2026-11-22T10:42:00Z';
  server.use(
    http.get('/api/v2/user/drafts', () =>
      HttpResponse.json({
        payload: { drafts: [...drafts].map(([form, fields]) => ({ form, fields, updatedAt: at, expiresAt: at })) },
      }),
    ),
    http.put('/api/v2/user/drafts/:form', async ({ params, request }) => {
      const form = decodeURIComponent(String(params.form));
      const { fields } = (await request.json()) as { fields: Record<string, unknown> };
      puts.push({ form, fields });
      const next = { ...drafts.get(form) };
      for (const [k, v] of Object.entries(fields)) {
        if (v === null) delete next[k];
        else next[k] = v;
      }
      if (Object.keys(next).length) drafts.set(form, next);
      else drafts.delete(form);
      return HttpResponse.json({ payload: { form, updatedAt: at, expiresAt: at } });
    }),
    http.delete('/api/v2/user/drafts/:form', ({ params }) => {
      drafts.delete(decodeURIComponent(String(params.form)));
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return { drafts, puts };
}

const CHAT = '/api/v2/user/subject/profile/:profileId/chat-messages';

export const defaultHandlers = [
  http.post('/oauth/access_token', () => HttpResponse.json(tokenResponse())),
  http.delete('/oauth/access_token', () => new HttpResponse(null, { status: 204 })),
  http.get('/api/v2/user', () => HttpResponse.json(userPayload(2))),
  // Every login sends the browser's time zone (lib/auth.ts), without waiting for the answer.
  http.put('/api/v2/user/timezone', async ({ request }) => HttpResponse.json(await request.json())),
  // /login and /new-link ask what happened to a link the server refused.
  http.get('/api/v2/links/status', () => HttpResponse.json({ kind: 'invitation', state: 'expired' })),
  // The reset page checks its link before showing the form.
  http.post('/api/user/password/reset/verify', () => HttpResponse.json({ valid: true, username: 'jane@example.com' })),
  http.get('/api/settings/company/:id', () => HttpResponse.json(companySettings())),
  http.get('/api/v2/user/preparation', () => HttpResponse.json(preparation())),
  http.get('/api/v2/banner/active', () => HttpResponse.json({ payload: { banner: null } })),
  http.get('/api/v2/user/document', () => HttpResponse.json(legalDocuments())),
  http.get('/api/v2/document/:id', ({ params }) => HttpResponse.json(documentContent(Number(params.id)))),
  http.get('/api/v2/user/data', () => HttpResponse.json(subjectData())),
  // The navigation of every page after setup reads the checklist.
  http.get('/api/v2/user/subject', () => HttpResponse.json({ payload: subjectRead() })),
  // The hub (/profile) reads the profile and each order's detail; /confirmation the service definitions.
  http.get('/api/v2/user/profile', () => HttpResponse.json(userPayload(1).profile)),
  // A package that asks for no documents and no forms, and no report attached.
  http.get('/api/v2/user/disputes', () => HttpResponse.json({ payload: [] })),
  http.get('/api/v2/user/profile/documents', () =>
    HttpResponse.json({
      documentTypes: [],
      documents: [],
      reports: [],
      writable: true,
      deletable: true,
      maxUploadBytes: 20971520,
    }),
  ),
  http.get('/api/v2/user/profile/fillable-pdf-forms', () => HttpResponse.json([])),
  http.get('/api/v2/user/order/:id', () => HttpResponse.json({ errorMessage: 'Not found' }, { status: 404 })),
  http.get('/api/v2/user/service', () => HttpResponse.json({ payload: [] })),
  // No drafts: a form test that types waits no draft save out, and one about drafts installs fakeDrafts().
  http.get('/api/v2/user/drafts', () => HttpResponse.json({ payload: { drafts: [] } })),
  http.put('/api/v2/user/drafts/:form', ({ params }) =>
    HttpResponse.json({
      payload: { form: params.form, updatedAt: '2026-11-22T10:42:00Z', expiresAt: '2026-12-22T10:42:00Z' },
    }),
  ),
  http.delete('/api/v2/user/drafts/:form', () => new HttpResponse(null, { status: 204 })),
  // After the profile: an active identity-verification session; nothing paid or owed; no site chosen.
  http.put('/api/v2/idv/session', () => HttpResponse.json({ ...idvSession, token: 'token-1' })),
  http.get('/api/v2/idv/session/:id', () => HttpResponse.json(idvSession)),
  http.get('/api/v2/payment', () =>
    HttpResponse.json({ required: false, amount: '0.00', currency: 'USD', exemptState: null, authorization: null }),
  ),
  // No adverse-action notice.
  http.get('/api/v2/user/adverse-action', () => HttpResponse.json(null)),
  http.get('/api/v2/user/collection-site', () =>
    HttpResponse.json({ site: null, chosenAt: null, collectedAt: null, changeable: false }),
  ),
  // The chat of the logged-in chrome: no messages, nothing unread, a quiet event stream (the applicant's one).
  http.get(CHAT, () => HttpResponse.json({ payload: [] })),
  http.get(`${CHAT}/unread-messages`, () => HttpResponse.json({ unreadMessages: 0 })),
  http.post(`${CHAT}/read`, () => HttpResponse.json({ unreadMessages: 0 })),
  http.get('/api/v2/user/events', () => userEventStream()),
  http.get('/api/v2/lookup/:key', ({ params }) =>
    lookups[String(params.key)]
      ? HttpResponse.json(lookups[String(params.key)])
      : HttpResponse.json({ errorMessage: 'Not found' }, { status: 404 }),
  ),
];

export const server = setupServer(...defaultHandlers);
