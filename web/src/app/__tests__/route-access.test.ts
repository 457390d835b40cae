// The access rules of spec section 2 as one table: every route, for a
// logged-out visitor (with and without an invitation token) and for a
// logged-in applicant in every order status.
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { pageRoutes } from '@/app/router';
import { notifications } from '@/lib/notifications';
import { session } from '@/lib/session';
import { companySettings, userPayload } from '@/testing/fixtures';
import { createTestRouter, logInAs, settled } from '@/testing/render-app';
import { server } from '@/testing/server';
import { cachedCurrentUser } from '@/lib/current-user';

type Status =
  | 'new'
  | 'setup-complete'
  | 'finalization-complete'
  | 'idv-started'
  | 'MRO-site-selection-started'
  | 'self-pay-required';

const PUBLIC = 'public' as const;
const setupComplete: Status[] = ['setup-complete'];
const printable: Status[] = ['setup-complete', 'finalization-complete'];

// Spec section 2, written out by hand (not derived from the router).
const access: Record<string, typeof PUBLIC | Status[]> = {
  '/account': PUBLIC,
  '/login': PUBLIC,
  '/reset': PUBLIC,
  '/confirm-email': PUBLIC,
  // Not in spec section 2: the design system's gallery (issue 9), open to all.
  '/ui': PUBLIC,
  '/privacy': PUBLIC,
  '/register': PUBLIC,
  '/register/abc123': PUBLIC,
  '/continue': PUBLIC,
  '/new-link': PUBLIC,
  '/reminders/stop': PUBLIC,
  '/': ['finalization-complete'],
  '/collection-site-update': ['finalization-complete'],
  '/report': ['finalization-complete'],
  '/disputes': ['finalization-complete'],
  '/disputes/new': ['finalization-complete'],
  '/disputes/:id': ['finalization-complete'],
  '/adverse-action': ['finalization-complete'],
  '/setup': ['new'],
  '/additional-documents': setupComplete,
  '/addresses': setupComplete,
  '/aliases': setupComplete,
  '/confirmation': setupComplete,
  '/credential': setupComplete,
  '/education': setupComplete,
  '/employment': setupComplete,
  '/fillable-pdf-form': setupComplete,
  '/personal': setupComplete,
  '/personal-data': setupComplete,
  '/professional': setupComplete,
  '/profile': setupComplete,
  '/idv': ['idv-started'],
  '/idv/success': ['idv-started'],
  '/collection-site': ['MRO-site-selection-started'],
  '/self-pay': ['self-pay-required'],
  '/print/authorization': printable,
  '/print/california-disclosure': printable,
  '/print/disclosure': printable,
  '/print/dot-release': printable,
  '/print/esign': printable,
  '/print/investigative': printable,
  '/print/rights': printable,
  '/print/rightslinks': printable,
  '/print/statedisclose': printable,
};

// The redirect table of the status guard.
const home: Record<Status, string> = {
  'idv-started': '/idv',
  'MRO-site-selection-started': '/collection-site',
  'self-pay-required': '/self-pay',
  new: '/setup',
  'setup-complete': '/profile',
  'finalization-complete': '/',
};

// Order status ids (spec section 4); 4 Complete and 5 QA route as finalization-complete.
const statusById: Record<number, Status> = {
  0: 'new',
  1: 'setup-complete',
  2: 'finalization-complete',
  3: 'idv-started',
  4: 'finalization-complete',
  5: 'finalization-complete',
  6: 'MRO-site-selection-started',
  7: 'self-pay-required',
};

type Visitor =
  | { kind: 'logged-out'; token: boolean }
  | { kind: 'logged-in'; statusId: number; token: boolean }
  | { kind: 'site-selection-company' };

type Row = { path: string; visitor: Visitor; label: string; expected: string; message?: string };

function expectedFor(path: string, visitor: Visitor): Pick<Row, 'expected' | 'message'> {
  const rule = access[path];
  const query = visitor.kind !== 'site-selection-company' && visitor.token ? '?token=abc123' : '';
  const url = path + query;
  if (visitor.kind !== 'logged-out' && path === '/login') {
    // A logged-in applicant has no use for the login form: on to where their status belongs.
    return {
      expected:
        home[visitor.kind === 'site-selection-company' ? 'finalization-complete' : statusById[visitor.statusId]],
    };
  }
  if (rule === PUBLIC) return { expected: url };
  if (visitor.kind === 'logged-out') {
    // /setup: token guard (token login with the invitation token); elsewhere: auth guard.
    if (path === '/setup') return { expected: visitor.token ? '/setup?token=abc123' : '/login' };
    return { expected: visitor.token ? '/setup?token=abc123' : '/login' };
  }
  const status = visitor.kind === 'site-selection-company' ? 'finalization-complete' : statusById[visitor.statusId];
  if (visitor.kind === 'site-selection-company' && path === '/collection-site') return { expected: '/collection-site' };
  if (rule.includes(status)) return { expected: url };
  if (status === 'new') return { expected: `/setup${query}`, message: 'Please finish setting up your account' };
  return { expected: home[status] };
}

const visitors: { label: string; visitor: Visitor }[] = [
  { label: 'logged out', visitor: { kind: 'logged-out', token: false } },
  { label: 'logged out with ?token', visitor: { kind: 'logged-out', token: true } },
  ...Object.keys(statusById).map((id) => ({
    label: `logged in, status ${id} (${statusById[Number(id)]})`,
    visitor: { kind: 'logged-in', statusId: Number(id), token: false } as Visitor,
  })),
  { label: 'logged in, status 0 (new) with ?token', visitor: { kind: 'logged-in', statusId: 0, token: true } },
  {
    label: 'logged in, finalization-complete, company lets applicants pick the collection site',
    visitor: { kind: 'site-selection-company' },
  },
];

const rows: Row[] = Object.keys(access).flatMap((path) =>
  visitors.map(({ label, visitor }) => ({ path, visitor, label, ...expectedFor(path, visitor) })),
);

function concretePaths(routePath: string): string[] {
  if (routePath.includes(':token?')) return [routePath.replace('/:token?', ''), routePath.replace(':token?', 'abc123')];
  if (routePath.includes(':type')) return [routePath.replace(':type', 'esign')];
  return [routePath];
}

describe('route access', () => {
  it('the table covers every route of the app', () => {
    const routed = pageRoutes.flatMap((route) => concretePaths(route.path));
    for (const path of routed) expect(access, `route ${path} has no row`).toHaveProperty([path]);
  });

  it.each(rows)('$path, $label -> $expected', async ({ path, visitor, expected, message }) => {
    let statusPosts = 0;
    server.use(
      // Token login from the invitation link answers a new applicant.
      http.get('/api/user', ({ request }) =>
        new URL(request.url).searchParams.get('token') === 'abc123'
          ? HttpResponse.json({
              ...userPayload(0),
              access_token: 'setup-1',
              token_type: 'Bearer',
              expires_in: 900,
              scope: 'setup',
            })
          : HttpResponse.json({ errorMessage: 'Forbidden' }, { status: 403 }),
      ),
      http.post('/api/v2/user/subject/status', async ({ request }) => {
        statusPosts++;
        const { statusId } = (await request.json()) as { statusId: number };
        return HttpResponse.json(userPayload(statusId));
      }),
    );
    if (visitor.kind === 'logged-in') logInAs(visitor.statusId);
    if (visitor.kind === 'site-selection-company') {
      logInAs(2, { settings: companySettings({ company_applicant_collection_site_selection: true }) });
    }
    const query = visitor.kind !== 'site-selection-company' && visitor.token ? '?token=abc123' : '';

    const router = createTestRouter(path + query);
    await settled(router);

    const { pathname, search } = router.state.location;
    expect(pathname + search).toBe(expected);
    if (message) {
      expect(notifications.getSnapshot()).toContainEqual(expect.objectContaining({ text: message, kind: 'info' }));
    }
    // The collection-site rule moves the applicant into MRO-site-selection-started (status 6) first.
    const movesToSiteSelection = visitor.kind === 'site-selection-company' && path === '/collection-site';
    expect(statusPosts).toBe(movesToSiteSelection ? 1 : 0);
    if (movesToSiteSelection) expect(cachedCurrentUser()?.subject.status.statusId).toBe(6);
    // The bootstrap guard stored the configured client credentials.
    expect(session.get().credentials).toMatchObject({ client_id: 'portal-spa', client_secret: 'portal-spa-secret' });
    router.dispose();
  });
});
