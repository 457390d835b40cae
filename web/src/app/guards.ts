// Access guards of spec section 2, run as route loaders before a page renders.
import { redirect, type LoaderFunctionArgs } from 'react-router';
import { paths } from '@/config/paths';
import { ApiError, errorMessageOf } from '@/lib/api-client';
import { loginWithInvitationToken, moveSubjectStatus } from '@/lib/auth';
import { config } from '@/lib/config';
import { notify } from '@/lib/notifications';
import { session } from '@/lib/session';
import { statusFromId, statusHomePath, statusIds, type SubjectStatus } from '@/lib/subject-status';
import { t } from '@/lib/i18n';

/** Who may open a route. */
export type RouteAccess =
  | { kind: 'public' }
  /** /setup: token guard, then the status guard */
  | { kind: 'setup'; statuses: readonly SubjectStatus[] }
  /** every other page: auth guard, then the status guard */
  | { kind: 'status'; statuses: readonly SubjectStatus[] };

/** Bootstrap guard: store the configured client credentials when none are set. */
export function bootstrapGuard() {
  const { client_id, client_secret } = session.get().credentials;
  if (!client_id || !client_secret) {
    session.setCredentials({ client_id: config.clientId, client_secret: config.clientSecret });
  }
}

/** Auth guard: not logged in goes to /setup?token=... when a token query exists, else to /login. */
export function authGuard(url: URL): Response | null {
  if (session.get().loggedIn) return null;
  const token = url.searchParams.get('token');
  return redirect(token ? paths.setup.getHref(token) : paths.login.getHref());
}

/**
 * Token guard: with a token and no credential, log in with the token (403 goes
 * to /login, which says what happened to the link and offers a new one; other
 * errors are rethrown); without a token, not logged in goes to /login.
 */
export async function tokenGuard(url: URL): Promise<Response | null> {
  const token = url.searchParams.get('token');
  if (token && !session.get().credentials.jwt) {
    try {
      await loginWithInvitationToken(token);
    } catch (error) {
      // An expired, used or unknown invitation (spec section 2: to /login, which explains it).
      if (error instanceof ApiError && error.status === 403) return redirect(paths.login.getHref());
      throw error;
    }
    return null;
  }
  if (!token && !session.get().loggedIn) return redirect(paths.login.getHref());
  return null;
}

// The query cache of the user loads with the first guarded page, not with /login.
const userCache = () => import('@/lib/current-user');

/** Moves a finalization-complete applicant into MRO-site-selection-started; false when the server refuses. */
async function startSiteSelection(): Promise<boolean> {
  try {
    await moveSubjectStatus(statusIds['MRO-site-selection-started']);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) {
      notify(errorMessageOf(error), 'error');
      return false;
    }
    throw error;
  }
}

/** Status guard: the page must allow the applicant's status, else the redirect table of spec section 2. */
export async function statusGuard(url: URL, allowed: readonly SubjectStatus[]): Promise<Response | null> {
  // From the cache, or after a reload from the server with the stored credential.
  const { user, settings } = await (await userCache()).ensureCurrentUser();
  const status = statusFromId(user.subject.status?.statusId);
  if (allowed.includes(status)) return null;

  if (
    status === 'finalization-complete' &&
    allowed.includes('MRO-site-selection-started') &&
    settings?.preferences.company_applicant_collection_site_selection === true &&
    (await startSiteSelection())
  ) {
    return null;
  }

  if (status === 'new') {
    notify(t('errors.finishSetup'), 'info');
    return redirect(paths.setup.getHref(url.searchParams.get('token')));
  }
  return redirect(statusHomePath[status]);
}

/**
 * Login guard: a logged-in applicant has nothing to do on /login (it would
 * show a login form under the top bar), so they go on to the page their
 * status allows, as the status guard would send them (spec section 2).
 */
export async function loginGuard(): Promise<Response | null> {
  if (!session.get().loggedIn) return null;
  const { user } = await (await userCache()).ensureCurrentUser();
  return redirect(statusHomePath[statusFromId(user.subject.status?.statusId)]);
}

/**
 * The loader of a route: bootstrap, then the guards its access needs, in order. With loadPage (a
 * guarded page's code, and its layout's), the page loads only for a visitor the guards may let in
 * (a session, or /setup's invitation token), while they check the rest, and the loader waits for it:
 * a logged-out visitor goes to /login without downloading any logged-in code.
 */
export function guardLoader(access: RouteAccess, loadPage?: () => Promise<unknown>) {
  return async ({ request }: LoaderFunctionArgs) => {
    bootstrapGuard();
    const url = new URL(request.url);
    if (access.kind === 'public') return url.pathname === paths.login.path ? loginGuard() : null;
    const mayEnter = session.get().loggedIn || (access.kind === 'setup' && url.searchParams.has('token'));
    const page = mayEnter ? loadPage?.() : undefined;
    // Waited for below; a failure meanwhile must not count as unhandled when a guard sends the visitor away.
    page?.catch(() => undefined);
    // The status guard's code too, while an invitation's token logs in (statusGuard waits for it).
    if (mayEnter) userCache().catch(() => undefined);
    const redirect =
      (access.kind === 'setup' ? await tokenGuard(url) : authGuard(url)) ?? (await statusGuard(url, access.statuses));
    if (redirect) return redirect;
    // Admitted now (a token login just made a session): the page, if it did not start above.
    await (page ?? loadPage?.());
    return null;
  };
}
