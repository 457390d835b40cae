import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { MAIN_MENU_CHAT_SELECTED } from '@/lib/app-events';
import { session } from '@/lib/session';
import { companySettings, userPayload } from '@/testing/fixtures';
import { logInAs, renderApp, settled } from '@/testing/render-app';
import { server } from '@/testing/server';
import { cachedCurrentUser, companySettingsQuery } from '@/lib/current-user';
import { queryClient } from '@/lib/query-client';
import { config } from '@/lib/config';

async function openHome() {
  logInAs(2);
  const app = renderApp('/');
  const trigger = await screen.findByRole('button', { name: 'User menu' });
  return { ...app, trigger };
}

describe('user menu', () => {
  it('opens from the keyboard, closes on Escape and returns focus to the trigger', async () => {
    const { user, trigger } = await openHome();
    trigger.focus();
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    expect(menu).toHaveTextContent('Dana Demo');
    expect(menu).toHaveTextContent('Acme Logistics');
    // Opened from the keyboard, the first entry has focus; arrow keys move on.
    expect(screen.getByRole('menuitem', { name: 'Account' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Continue on your phone' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Message Acme Logistics hiring team' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Logout' })).toHaveFocus();

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    expect(trigger).toHaveFocus();
  });

  it('opens inside the header landmark, not in a portal outside every landmark', async () => {
    const { user, trigger } = await openHome();
    await user.click(trigger);
    const menu = await screen.findByRole('menu');
    // The top bar's header (the page's own header inside <main> is no landmark, though jsdom counts it).
    const topBar = trigger.closest('header');
    expect(topBar).not.toBeNull();
    expect(topBar?.closest('main')).toBeNull();
    expect(topBar).toContainElement(menu);
  });

  it('closes on a click outside', async () => {
    const { user, trigger } = await openHome();
    await user.click(trigger);
    expect(await screen.findByRole('menu')).toBeInTheDocument();
    // The menu is not modal (modal={false}): the page behind it stays clickable, and a click there closes the menu.
    await user.click(document.querySelector('main') as HTMLElement);
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
  });

  it('shows the personal information names before the account names', async () => {
    logInAs(2, {
      payload: userPayload(2, {
        personalInformation: { firstName: 'Danielle', middleName: null, lastName: 'Demonte' },
      }),
    });
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'User menu' }));
    expect(await screen.findByRole('menu')).toHaveTextContent('Danielle Demonte');
  });

  it('offers the chat with the hiring team, by name, only when the feature flag and the company preference are on, and raises main-menu-chat-selected', async () => {
    const { user, trigger } = await openHome();
    const listener = vi.fn();
    window.addEventListener(MAIN_MENU_CHAT_SELECTED, listener);
    await user.click(trigger);
    await user.click(await screen.findByRole('menuitem', { name: 'Message Acme Logistics hiring team' }));
    expect(listener).toHaveBeenCalledTimes(1);
    window.removeEventListener(MAIN_MENU_CHAT_SELECTED, listener);

    act(() =>
      queryClient.setQueryData(companySettingsQuery(1).queryKey, companySettings({ company_subject_chat: false })),
    );
    await user.click(trigger);
    await screen.findByRole('menu');
    expect(screen.queryByRole('menuitem', { name: 'Message Acme Logistics hiring team' })).not.toBeInTheDocument();
  });

  it.each([
    { flag: true, companyChat: true, shown: true },
    { flag: true, companyChat: false, shown: false },
    { flag: false, companyChat: true, shown: false },
    { flag: false, companyChat: false, shown: false },
  ])(
    'with the subjectChat flag $flag and company_subject_chat $companyChat, the chat is offered: $shown',
    async ({ flag, companyChat, shown }) => {
      const saved = config.features.subjectChat;
      config.features.subjectChat = flag;
      try {
        const { user, trigger } = await openHome();
        act(() =>
          queryClient.setQueryData(
            companySettingsQuery(1).queryKey,
            companySettings({ company_subject_chat: companyChat }),
          ),
        );
        await user.click(trigger);
        await screen.findByRole('menuitem', { name: 'Account' });
        expect(screen.queryAllByRole('menuitem', { name: /Message Acme Logistics hiring team/ })).toHaveLength(
          shown ? 1 : 0,
        );
      } finally {
        config.features.subjectChat = saved;
      }
    },
  );

  it('Account goes to /account', async () => {
    const { user, trigger, router } = await openHome();
    await user.click(trigger);
    await user.click(await screen.findByRole('menuitem', { name: 'Account' }));
    await settled(router);
    expect(router.state.location.pathname).toBe('/account');
  });

  it('Logout revokes the token, resets the session, says so and lands on /login', async () => {
    const revoked = vi.fn();
    server.use(
      http.delete('/oauth/access_token', ({ request }) => {
        revoked(request.headers.get('Authorization'));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user, trigger, router } = await openHome();
    await user.click(trigger);
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));

    expect(await screen.findByText('Logged out successfully.')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(revoked).toHaveBeenCalledWith('Bearer access-1');
    expect(session.get()).toMatchObject({ loggedIn: false, isLogoutInitiated: false, credentials: { jwt: null } });
    expect(cachedCurrentUser()).toBeUndefined();
    // Only the client credentials, stored again by the bootstrap guard of /login, are left.
    const stored = JSON.parse(sessionStorage.getItem('portal-session') ?? '{}') as Record<string, unknown>;
    expect(stored).toMatchObject({
      loggedIn: false,
      credentials: { jwt: null, refreshToken: null, client_id: 'portal-spa' },
    });
    expect(stored).not.toHaveProperty('authUser');
    expect(screen.queryByRole('button', { name: 'User menu' })).not.toBeInTheDocument();
  });
});

describe('top bar', () => {
  it('shows the provider’s brand and the company logo, the company’s name when the logo fails to load', async () => {
    logInAs(2, {
      settings: { ...companySettings(), companyLogoUrlAddress: 'https://example.invalid/logo.png' },
    });
    renderApp('/');
    const home = await screen.findByRole('link', { name: 'ClearPath Screening Acme Logistics logo (home page)' });
    const logo = await within(home).findByRole('img', { name: 'Acme Logistics logo' });
    expect(logo).toHaveAttribute('src', 'https://example.invalid/logo.png');
    expect(within(home).getByTestId('brand-wordmark')).toHaveTextContent('ClearPath Screening');
    logo.dispatchEvent(new Event('error'));
    expect(await within(home).findByTestId('header-employer')).toHaveTextContent('Acme Logistics');
    expect(within(home).queryByRole('img', { name: 'Acme Logistics logo' })).not.toBeInTheDocument();
    expect(within(home).getByTestId('brand-wordmark')).toBeInTheDocument();
  });

  it('names the company in text when it has no logo', async () => {
    logInAs(2);
    renderApp('/');
    const home = await screen.findByRole('link', { name: 'ClearPath Screening Acme Logistics (home page)' });
    expect(await within(home).findByTestId('brand-wordmark')).toHaveTextContent('ClearPath Screening');
    expect(within(home).getByTestId('header-employer')).toHaveTextContent('Acme Logistics');
  });

  it('shows the provider’s brand without the menu when logged out', async () => {
    const { router } = renderApp('/login');
    await settled(router);
    expect(await screen.findByRole('heading', { name: 'Applicant Portal' })).toBeInTheDocument();
    const header = screen.getByRole('banner');
    expect(within(header).getByTestId('brand-wordmark')).toHaveTextContent('ClearPath Screening');
    // Not on /login: no invitation names the employer there.
    expect(within(header).queryByTestId('header-employer')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'User menu' })).not.toBeInTheDocument();
  });

  it('shows the maintenance banner to logged-in applicants and dismisses it', async () => {
    const dismissed = vi.fn();
    server.use(
      http.get('/api/v2/banner/active', () =>
        HttpResponse.json({ payload: { banner: { id: 5, message: 'Maintenance tonight from 22:00.' } } }),
      ),
      http.post('/api/v2/banner/dismiss/:id', ({ params }) => {
        dismissed(params.id);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user } = await openHome();
    const banner = await screen.findByRole('region', { name: 'Maintenance notice' });
    expect(banner).toHaveTextContent('Maintenance tonight from 22:00.');
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Maintenance notice' })).not.toBeInTheDocument());
    expect(dismissed).toHaveBeenCalledWith('5');
  });
});
