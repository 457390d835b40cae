import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { preparation, userPayload } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

function invitation() {
  server.use(
    http.get('/api/user', () =>
      HttpResponse.json({
        ...userPayload(0, { hasPassword: false }),
        access_token: 'setup-1',
        token_type: 'Bearer',
        expires_in: 900,
        scope: 'setup',
      }),
    ),
  );
}

const needList = async () => within(await screen.findByRole('region', { name: "What you'll need" })).getByRole('list');

describe("the Welcome step's honest start", () => {
  it("shows the server's estimate and each item with why it is asked", async () => {
    invitation();
    renderApp('/setup?token=invite-1');
    expect(
      await screen.findByText(
        "All of it takes about 35 to 45 minutes. You don't have to do it in one go: you can stop and come back, and what you type is kept.",
      ),
    ).toBeInTheDocument();
    const items = within(await needList()).getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('p')?.textContent)).toEqual([
      'Your Social Security number and date of birth',
      'Any other names you have used',
      'Every address you have lived at in the last 7 years, with the month and year you moved in',
      'Your employers, with their city, phone number and your dates',
      "Documents to upload: Driver's license",
      "A photo ID (driver's license, state ID or passport) and a phone or computer with a camera",
      'A payment card for a hold of $25.00',
    ]);
    expect(items[2]).toHaveTextContent('Courts keep records by county, so we search where you have lived.');
    // The step's Next button stays.
    expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled();
  });

  it('shows items marked for later as checked, named by the item', async () => {
    invitation();
    server.use(http.get('/api/v2/user/preparation', () => HttpResponse.json(preparation(['employers']))));
    renderApp('/setup?token=invite-1');
    const employers = await screen.findByRole('checkbox', {
      name: "I'll find this later: Your employers, with their city, phone number and your dates",
    });
    expect(employers).toBeChecked();
    expect(screen.getByRole('checkbox', { name: /I'll find this later: Any other names/ })).not.toBeChecked();
  });

  it('saves a mark and keeps it checked', async () => {
    invitation();
    const puts: unknown[] = [];
    server.use(
      http.put('/api/v2/user/preparation/:id', async ({ params, request }) => {
        const body = (await request.json()) as { later: boolean };
        puts.push({ id: params.id, ...body });
        return HttpResponse.json(preparation(body.later ? [String(params.id)] : []));
      }),
    );
    renderApp('/setup?token=invite-1');
    const box = await screen.findByRole('checkbox', { name: /I'll find this later: Every address/ });
    await userEvent.click(box);
    await waitFor(() => expect(puts).toEqual([{ id: 'addresses', later: true }]));
    expect(box).toBeChecked();
  });

  it('puts a mark back and says so when it is not saved', async () => {
    invitation();
    server.use(
      http.put('/api/v2/user/preparation/:id', () =>
        HttpResponse.json({ errorMessage: 'This item is not on your list.' }, { status: 404 }),
      ),
    );
    renderApp('/setup?token=invite-1');
    const box = await screen.findByRole('checkbox', { name: /I'll find this later: Any other names/ });
    await userEvent.click(box);
    expect(await screen.findByText('Your mark was not saved. Try again.')).toBeInTheDocument();
    expect(box).not.toBeChecked();
  });

  it('lets the applicant carry on when the list cannot be loaded', async () => {
    invitation();
    server.use(
      http.get('/api/v2/user/preparation', () => HttpResponse.json({ errorMessage: 'Server error' }, { status: 500 })),
    );
    renderApp('/setup?token=invite-1');
    expect(
      await screen.findByText("We could not load the list of what you'll need. You can still carry on."),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled();
  });
});
