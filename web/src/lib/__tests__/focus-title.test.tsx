import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useRef, useState } from 'react';
import { createMemoryRouter, Link, Outlet, RouterProvider, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { usePageChangeFocus } from '../focus-title';

function Frame() {
  const { pathname } = useLocation();
  const announcement = usePageChangeFocus(`Page ${pathname}`, pathname);
  return (
    <>
      <header>
        <Link to="/">Home</Link>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <p aria-live="polite" data-testid="announcement">
        {announcement}
      </p>
    </>
  );
}

function Page({ title }: { title: string }) {
  return <h1>{title}</h1>;
}

/** Loads before its h1 shows. */
function LatePage() {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLoaded(true), 20);
    return () => clearTimeout(timer);
  }, []);
  return loaded ? <h1>Late</h1> : <p>Loading</p>;
}

/** Puts the focus in its field itself. */
function FieldPage() {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <>
      <h1>Sign in</h1>
      <label>
        E-mail <input ref={ref} />
      </label>
    </>
  );
}

/** "Start" gives way to the next step, with its own h1. */
function StepPage() {
  const [started, setStarted] = useState(false);
  return started ? (
    <h1>Step two</h1>
  ) : (
    <>
      <h1>Step one</h1>
      <button type="button" onClick={() => setStarted(true)}>
        Start
      </button>
    </>
  );
}

function renderRoutes(url: string) {
  const router = createMemoryRouter(
    [
      {
        element: <Frame />,
        children: [
          { path: '/', element: <Page title="Home" /> },
          { path: '/account', element: <Page title="Account" /> },
          { path: '/late', element: <LatePage /> },
          { path: '/login', element: <FieldPage /> },
          { path: '/steps', element: <StepPage /> },
        ],
      },
    ],
    { initialEntries: [url] },
  );
  render(<RouterProvider router={router} />);
  return { router, user: userEvent.setup() };
}

describe('usePageChangeFocus', () => {
  it('leaves the first page of a visit at the browser start, announcing nothing', () => {
    renderRoutes('/account');
    expect(document.body).toHaveFocus();
    expect(screen.getByTestId('announcement')).toHaveTextContent('');
  });

  it('focuses the new page h1 and announces its title when the app moves on by itself', async () => {
    const { router } = renderRoutes('/');
    await act(() => router.navigate('/account'));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Account' })).toHaveFocus());
    expect(screen.getByTestId('announcement')).toHaveTextContent('Page /account');
  });

  it('takes the focus from a top bar link that stays on the screen', async () => {
    const { user } = renderRoutes('/account');
    await user.click(screen.getByRole('link', { name: 'Home' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Home' })).toHaveFocus());
  });

  it('waits for a page that shows its h1 once loaded', async () => {
    const { router } = renderRoutes('/');
    await act(() => router.navigate('/late'));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Late' })).toHaveFocus());
  });

  it('leaves the focus where the new page put it', async () => {
    const { router } = renderRoutes('/');
    await act(() => router.navigate('/login'));
    expect(screen.getByRole('textbox', { name: 'E-mail' })).toHaveFocus();
  });

  it('focuses the h1 of a step that replaced the button pressed', async () => {
    const { user } = renderRoutes('/steps');
    await user.click(screen.getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Step two' })).toHaveFocus());
  });
});
