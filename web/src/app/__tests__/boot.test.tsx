// The first load of /login (the login shell, without React Router) and its hand-over to the router app.
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { setReturnPath } from '@/lib/login-notice';
import { navigateTo } from '@/lib/navigation';
import { session } from '@/lib/session';
import { userPayload } from '@/testing/fixtures';
import { logInAs } from '@/testing/render-app';
import { server } from '@/testing/server';
import { boot } from '../boot';

let stop = () => {};

afterEach(() => {
  stop();
  window.history.replaceState(null, '', '/');
});

/** Boots the app at `path` as main.tsx does, into a test's container. */
function bootAt(path: string) {
  window.history.replaceState(null, '', path);
  const view = render(<></>);
  stop = boot((children) => view.rerender(<>{children}</>)).stop;
  return { ...view, user: userEvent.setup() };
}

/** Logs in through the form as a setup-complete applicant (status 1), whose first page is /profile. */
async function logIn(user: ReturnType<typeof userEvent.setup>) {
  server.use(http.get('/api/v2/user', () => HttpResponse.json(userPayload(1))));
  await user.type(await screen.findByLabelText('E-mail'), 'demo.applicant@example.com');
  await user.type(screen.getByLabelText('Password'), 'Demo-Applicant-2026!{Enter}');
}

describe('boot', () => {
  it('shows the login page on /login without the router, titled, with the page-change live region', async () => {
    bootAt('/login');
    expect(await screen.findByRole('heading', { level: 1, name: 'Applicant Portal' })).toBeInTheDocument();
    expect(document.title).toBe('Login | Applicant Portal');
    expect(document.getElementById('page-announcement')).toBeInTheDocument();
    expect(screen.getByRole('main')).toContainElement(screen.getByRole('form', { name: 'Login' }));
    expect(window.location.pathname).toBe('/login');
  });

  it("a login hands over to the router app, on the status's page, the toast kept and the page change announced", async () => {
    const { user } = bootAt('/login');
    await logIn(user);
    await waitFor(() => expect(window.location.pathname).toBe('/profile'));
    expect(await screen.findByText('Successfully logged in')).toBeInTheDocument();
    expect(session.get().loggedIn).toBe(true);
    // A page change, as before the login page had a router of its own: the new page's title is announced.
    await waitFor(() =>
      expect(document.getElementById('page-announcement')?.textContent).toBe(
        document.title.replace(/ \| Applicant Portal$/, ''),
      ),
    );
    expect(document.title).toBe('Profile | Applicant Portal');
    expect(screen.queryByRole('form', { name: 'Login' })).not.toBeInTheDocument();
  });

  it('a login goes back to the page a forced logout interrupted', async () => {
    setReturnPath('/privacy');
    const { user } = bootAt('/login');
    await logIn(user);
    await waitFor(() => expect(window.location.pathname).toBe('/privacy'));
  });

  it("another page opens the router app there; /login itself (a forced logout's) keeps the shell", async () => {
    bootAt('/login');
    const form = await screen.findByRole('form', { name: 'Login' });
    const entries = window.history.length;
    navigateTo('/login');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(form).toBeInTheDocument();
    expect(window.history.length).toBe(entries);
    navigateTo('/privacy');
    await waitFor(() => expect(window.location.pathname).toBe('/privacy'));
    await waitFor(() => expect(form).not.toBeInTheDocument());
  });

  it('/login with a session starts the router app, whose guard sends the applicant on', async () => {
    logInAs(1);
    bootAt('/login');
    await waitFor(() => expect(window.location.pathname).toBe('/profile'));
  });

  it('any other first page starts the router app', async () => {
    bootAt('/profile');
    // Logged out: the router's auth guard sends the visitor to /login, rendered by the router.
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Applicant Portal' })).toBeInTheDocument();
  });
});
