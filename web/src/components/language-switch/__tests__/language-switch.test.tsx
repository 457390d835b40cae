import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLocaleCookie } from '@/lib/locale';
import { logInAs, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

/** window.location with reload replaced (jsdom cannot reload), so the test sees the reload asked for. */
function watchReload() {
  const reload = vi.fn();
  const real = window.location;
  // Every other property is the real one's (the API client builds its URLs on href).
  const location = new Proxy({} as Location, { get: (_, key) => (key === 'reload' ? reload : Reflect.get(real, key)) });
  vi.spyOn(window, 'location', 'get').mockReturnValue(location);
  return reload;
}

/** What the server was told of the language, in the order it was told. */
function watchLocaleCalls() {
  const calls: unknown[] = [];
  server.use(
    http.put('/api/v2/user/locale', async ({ request }) => {
      calls.push(await request.json());
      return HttpResponse.json({});
    }),
  );
  return calls;
}

/** The switch of the signed-in top bar, once it shows (beside the user menu). */
async function signedInSwitch() {
  const menu = await screen.findByRole('button', { name: 'User menu' }, { timeout: 10000 });
  return within(menu.closest('header') as HTMLElement).getByRole('button', { name: 'Español' });
}

afterEach(() => {
  vi.restoreAllMocks();
  setLocaleCookie('en-US');
});

describe('the language switch', () => {
  it('names Spanish in Spanish, in the Spanish language, for a screen reader to say it right', async () => {
    renderApp('/login');
    const button = await screen.findByRole('button', { name: 'Español' });
    expect(button).toHaveAttribute('lang', 'es-US');
  });

  it('signed out, writes the locale cookie and reloads the page without calling the server', async () => {
    const reload = watchReload();
    const calls = watchLocaleCalls();
    const { user } = renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Español' }));
    expect(document.cookie).toContain('locale=es-US');
    expect(document.documentElement.lang).toBe('es-US');
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(calls).toEqual([]);
  });

  it('signed in, tells the server the new language before it reloads the page', async () => {
    const reload = watchReload();
    const calls = watchLocaleCalls();
    logInAs(2);
    const { user } = renderApp('/');
    await user.click(await signedInSwitch());
    expect(document.cookie).toContain('locale=es-US');
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(calls).toEqual([{ locale: 'es-US' }]);
  });

  it('signed in, still reloads when the server cannot be told', async () => {
    const reload = watchReload();
    server.use(http.put('/api/v2/user/locale', () => HttpResponse.json({}, { status: 500 })));
    logInAs(2);
    const { user } = renderApp('/');
    await user.click(await signedInSwitch());
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
  });
});
