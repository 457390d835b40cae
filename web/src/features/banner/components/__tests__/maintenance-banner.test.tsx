import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { logInAs, renderApp } from '@/testing/render-app';
import { liveUserEvents, server } from '@/testing/server';

describe('the maintenance banner', () => {
  it('moves focus to the main content when dismissed, not to the page body', async () => {
    server.use(
      http.get('/api/v2/banner/active', () =>
        HttpResponse.json({ payload: { banner: { id: 5, message: 'Maintenance tonight from 22:00.' } } }),
      ),
      http.post('/api/v2/banner/dismiss/:id', () => new HttpResponse(null, { status: 204 })),
    );
    logInAs(2);
    const { user } = renderApp('/');
    await screen.findByRole('region', { name: 'Maintenance notice' });
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Maintenance notice' })).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('main')).toHaveFocus());
  });

  it('appears and goes away, without a reload, when the event stream says an operator changed it', async () => {
    let banner: { id: number; message: string } | null = null;
    server.use(http.get('/api/v2/banner/active', () => HttpResponse.json({ payload: { banner } })));
    const { push } = liveUserEvents('{"chat": false}');
    logInAs(2);
    renderApp('/');
    await screen.findByRole('button', { name: 'User menu' });
    expect(screen.queryByRole('region', { name: 'Maintenance notice' })).not.toBeInTheDocument();

    banner = { id: 7, message: 'The portal restarts at 22:00 for five minutes.' };
    push('banner', '{"kind": "posted"}');
    expect(await screen.findByRole('region', { name: 'Maintenance notice' })).toHaveTextContent(
      'The portal restarts at 22:00 for five minutes.',
    );

    banner = null;
    push('banner', '{"kind": "cleared"}');
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Maintenance notice' })).not.toBeInTheDocument());
  });
});
