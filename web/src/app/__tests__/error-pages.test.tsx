import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { describeRouteError } from '@/app/routes/route-error';
import { ApiError } from '@/lib/api-client';
import { CHUNK_RELOAD_KEY, reloadForChunkError } from '@/lib/chunk-reload';
import { logInAs, renderApp, settled } from '@/testing/render-app';
import { server } from '@/testing/server';

describe('error pages', () => {
  it('an unknown path says "Page not found" in plain words, with the top bar, and links to the login page', async () => {
    const { user, router } = renderApp('/no/such/page');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Page not found' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByText('If you typed the web address, check it is correct.')).toBeInTheDocument();
    expect(screen.getByText('If you pasted it, check you copied the whole address.')).toBeInTheDocument();
    // Neither the raw path nor the status number: words an applicant can act on.
    expect(screen.queryByText(/no\/such\/page/)).not.toBeInTheDocument();
    expect(screen.queryByText('404')).not.toBeInTheDocument();
    expect(within(screen.getByRole('banner')).getByTestId('brand-wordmark')).toHaveTextContent('ClearPath Screening');
    await user.click(screen.getByRole('link', { name: 'Go to the login page' }));
    await settled(router);
    expect(router.state.location.pathname).toBe('/login');
  });

  it('a logged-in applicant on an unknown path is offered their home page', async () => {
    logInAs(1);
    const { user, router } = renderApp('/print');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    // No guard loaded the applicant here: the top bar asks for them, to show the employer too.
    const header = screen.getByRole('banner');
    expect(await within(header).findByTestId('header-employer')).toHaveTextContent('Acme Logistics');
    await user.click(screen.getByRole('link', { name: 'Go to your home page' }));
    await settled(router);
    // Home is guarded: it sends the applicant on to the page of their status.
    expect(router.state.location.pathname).toBe('/profile');
  });

  it('a failing guard shows the error page with the server errorMessage', async () => {
    server.use(
      http.get('/api/user', () => HttpResponse.json({ errorMessage: 'Service unavailable' }, { status: 503 })),
    );
    renderApp('/setup?token=abc');
    expect(await screen.findByText('Service unavailable')).toBeInTheDocument();
    expect(screen.getByText('Error code: 503')).toBeInTheDocument();
    // Inside the page's frame: the brands stay at the top.
    expect(within(screen.getByRole('banner')).getByTestId('brand-wordmark')).toBeInTheDocument();
  });

  it('falls back to status 500 for errors that carry none', () => {
    expect(describeRouteError(new Error('boom'))).toEqual({
      status: 500,
      message: 'An unexpected error occurred. Please try again.',
    });
    expect(describeRouteError(new ApiError(409, { errorMessage: 'Not now' }))).toEqual({
      status: 409,
      message: 'Not now',
    });
  });

  it('reloads for a failed chunk at most once per 60 s', () => {
    const reload = vi.fn();
    const start = 1_000_000;
    expect(reloadForChunkError(start, reload)).toBe(true);
    expect(sessionStorage.getItem(CHUNK_RELOAD_KEY)).toBe(String(start));
    expect(reloadForChunkError(start + 59_999, reload)).toBe(false);
    expect(reloadForChunkError(start + 60_000, reload)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });
});

describe('routing details', () => {
  it('a new applicant sent to /setup sees "Please finish setting up your account"', async () => {
    logInAs(0);
    const { router } = renderApp('/profile');
    expect(await screen.findByText('Please finish setting up your account')).toBeInTheDocument();
    // The notice comes with the redirect; the move lands once the setup page's module has loaded.
    await waitFor(() => expect(router.state.location.pathname).toBe('/setup'));
  });

  it('print pages use the kebab-case form of the document type', async () => {
    logInAs(1);
    const { router } = renderApp('/print/californiaDisclosure');
    await waitFor(() => expect(router.state.location.pathname).toBe('/print/california-disclosure'));
    const printed = await screen.findByRole('article', { name: 'California disclosure' });
    expect(await within(printed).findByText('Sample text of document 3.')).toBeInTheDocument();
  });

  it('sets the page title per route', async () => {
    const { router } = renderApp('/login');
    await settled(router);
    await waitFor(() => expect(document.title).toBe('Login | Applicant Portal'));
  });
});
