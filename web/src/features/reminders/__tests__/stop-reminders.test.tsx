import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

function reminderHandlers() {
  const calls: string[] = [];
  for (const action of ['stop', 'resume']) {
    server.use(
      http.post(`/api/v2/reminders/${action}`, async ({ request }) => {
        calls.push(`${action}:${((await request.json()) as { token: string }).token}`);
        return HttpResponse.json({ message: 'ok' });
      }),
    );
  }
  return calls;
}

describe('/reminders/stop', () => {
  it('stops the reminders once on arrival and says so, with focus on the heading', async () => {
    const calls = reminderHandlers();
    renderApp('/reminders/stop?token=abc%2B123');
    const heading = await screen.findByRole('heading', { level: 1, name: "You won't get more reminders." });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(calls).toEqual(['stop:abc+123']);
    expect(screen.getByRole('link', { name: 'Go to the login page' })).toBeInTheDocument();
  });

  it('turns them back on, and off again, with the same token', async () => {
    const calls = reminderHandlers();
    const { user } = renderApp('/reminders/stop?token=tok');
    await user.click(await screen.findByRole('button', { name: 'Turn reminders back on' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Reminders are back on.');
    expect(screen.getByRole('heading', { level: 1, name: 'Reminders' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Stop reminders' }));
    await screen.findByRole('heading', { level: 1, name: "You won't get more reminders." });
    expect(calls).toEqual(['stop:tok', 'resume:tok', 'stop:tok']);
  });

  it('explains a link without its token and posts nothing', async () => {
    const calls = reminderHandlers();
    renderApp('/reminders/stop');
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is incomplete.');
    expect(calls).toEqual([]);
  });
});
