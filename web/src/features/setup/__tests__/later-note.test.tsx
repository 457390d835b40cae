import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { preparation } from '@/testing/fixtures';
import { logInAs, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

describe("the profile's note of what the applicant would find later", () => {
  it('lists the items marked on the Welcome step, and clears one once found', async () => {
    let marked = ['employers', 'documents'];
    server.use(
      http.get('/api/v2/user/preparation', () => HttpResponse.json(preparation(marked))),
      http.put('/api/v2/user/preparation/:id', async ({ params, request }) => {
        const { later } = (await request.json()) as { later: boolean };
        marked = later ? [...marked, String(params.id)] : marked.filter((id) => id !== params.id);
        return HttpResponse.json(preparation(marked));
      }),
    );
    logInAs(1);
    renderApp('/profile');
    const title = await screen.findByText("You said you'd find these later");
    const box = title.closest('[role="status"]') as HTMLElement;
    expect(
      within(box)
        .getAllByRole('listitem')
        .map((li) => li.querySelector('span')?.textContent),
    ).toEqual([
      'Your employers, with their city, phone number and your dates',
      "Documents to upload: Driver's license",
    ]);
    await userEvent.click(
      within(box).getByRole('button', {
        name: 'I have it now: Your employers, with their city, phone number and your dates',
      }),
    );
    await waitFor(() => expect(within(box).getAllByRole('listitem')).toHaveLength(1));
    expect(marked).toEqual(['documents']);
  });

  it('shows nothing when nothing was put off', async () => {
    logInAs(1);
    renderApp('/profile');
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(screen.queryByText("You said you'd find these later")).not.toBeInTheDocument());
  });
});
