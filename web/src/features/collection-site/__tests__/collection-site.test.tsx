import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { paymentAuthorization, userPayload } from '@/testing/fixtures';
import { logInAs, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';
import type { ChosenSite } from '../api/chosen-collection-site';
import type { CollectionSite, SiteSearchResult } from '../api/search-collection-sites';

function site(id: number, overrides: Partial<CollectionSite> = {}): CollectionSite {
  return {
    id,
    name: `Bay Clinic ${id}`,
    address: { street: `${id} Market St`, city: 'San Francisco', state: 'CA', zip: '94103' },
    phone: '(415) 555-0100',
    timeZone: 'America/Los_Angeles',
    hours: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'].map((day) => ({
      day,
      opens: '07:00',
      closes: '17:00',
    })),
    services: ['urine', 'oral_fluid', 'dot'],
    lat: 37.77,
    lon: -122.41,
    distanceMiles: 1.4,
    openNow: true,
    ...overrides,
  };
}

function results(sites: CollectionSite[], radius = 25): SiteSearchResult {
  return { origin: { zip: '94103', city: 'San Francisco', state: 'CA', lat: 37.77, lon: -122.41 }, radius, sites };
}

const withDrugZip = (statusId: number, paymentRequired = true) => {
  const payload = userPayload(statusId, { personalInformation: { firstName: 'Dana', drugZip: '94103' } });
  payload.finalization = { ...payload.finalization, paymentRequired };
  return payload;
};

type Searched = { zip: string | null; radius: string | null; dot: string | null };

function mockSearch(
  answer: (q: Searched) => Response = () => HttpResponse.json(results([site(1), site(2)])) as Response,
) {
  const searches: Searched[] = [];
  server.use(
    http.get('/api/v2/collection-sites', ({ request }) => {
      const params = new URL(request.url).searchParams;
      const q = { zip: params.get('zip'), radius: params.get('radius'), dot: params.get('dot') };
      searches.push(q);
      return answer(q);
    }),
  );
  return searches;
}

/** The status move, with the user it answers; the user is read again after it. */
function mockStatusMove() {
  const moves: { statusId: number }[] = [];
  server.use(
    http.post('/api/v2/user/subject/status', async ({ request }) => {
      const body = (await request.json()) as { statusId: number };
      moves.push(body);
      return HttpResponse.json(userPayload(body.statusId));
    }),
    http.get('/api/v2/user', () => HttpResponse.json(userPayload(moves.at(-1)?.statusId ?? 6))),
  );
  return moves;
}

function chosen(overrides: Partial<ChosenSite> = {}): ChosenSite {
  const { distanceMiles: _d, openNow: _o, ...current } = site(1);
  return { site: current, chosenAt: '2026-11-20T15:04:05Z', collectedAt: null, changeable: true, ...overrides };
}

describe('/collection-site', () => {
  it("searches at once near the applicant's drug-test ZIP and lists the sites as one radio group", async () => {
    const searches = mockSearch();
    logInAs(6, { payload: withDrugZip(6) });
    renderApp('/collection-site');
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose a drug-test collection site' })).toBeVisible();
    expect(screen.getByRole('textbox', { name: /ZIP code/ })).toHaveValue('94103');
    expect(screen.getByRole('combobox', { name: 'Distance' })).toHaveValue('25');

    const count = await screen.findByRole('heading', { name: '2 sites within 25 miles of 94103 (San Francisco, CA)' });
    // Announced politely after each search.
    expect(count.closest('[aria-live="polite"]')).not.toBeNull();
    expect(searches).toEqual([{ zip: '94103', radius: '25', dot: null }]);

    const group = screen.getByRole('radiogroup', { name: 'Choose a collection site' });
    const options = within(group).getAllByRole('radio');
    expect(options).toHaveLength(2);
    expect(options[0]).toHaveAccessibleName(expect.stringContaining('Bay Clinic 1'));
    expect(options[0]).toHaveAccessibleName(expect.stringContaining('1.4 miles away'));
    expect(options[0]).toHaveAccessibleDescription(expect.stringContaining('1 Market St, San Francisco, CA 94103'));
    expect(options[0]).toHaveAccessibleDescription(expect.stringContaining('Phone: (415) 555-0100'));
    // Nothing selected yet: no site's links or button, so a keyboard does not tab through every site's.
    expect(within(group).queryByRole('link')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Use this site' })).not.toBeInTheDocument();
    expect(group).toHaveAccessibleDescription(expect.stringContaining('Select a site'));
  });

  it('shows the links, all hours and the button under the selected site only', async () => {
    mockSearch(
      () =>
        HttpResponse.json(
          results([
            site(1, { address: { street: '1 Market St', city: 'San Francisco', state: 'US-CA', zip: '94103' } }),
            site(2),
          ]),
        ) as Response,
    );
    logInAs(6, { payload: withDrugZip(6) });
    const { user } = renderApp('/collection-site');
    const first = await screen.findByRole('radio', { name: /Bay Clinic 1/ });
    // The state as an address writes it.
    expect(first).toHaveAccessibleDescription(expect.stringContaining('San Francisco, CA 94103'));
    await user.click(first);
    const option = first.closest('li') as HTMLElement;
    expect(within(option).getByRole('link', { name: 'Call Bay Clinic 1 at (415) 555-0100' })).toHaveAttribute(
      'href',
      'tel:4155550100',
    );
    const directions = within(option).getByRole('link', { name: 'Directions to Bay Clinic 1 (opens in a new tab)' });
    expect(directions).toHaveAttribute('href', 'https://www.google.com/maps/dir/?api=1&destination=37.77,-122.41');
    expect(directions).toHaveAttribute('target', '_blank');
    expect(directions).toHaveAttribute('rel', 'noopener noreferrer');
    expect(within(option).getByText('All hours')).toBeVisible();
    expect(within(option).getByRole('button', { name: 'Use this site' })).toBeEnabled();
    expect(screen.getAllByRole('link', { name: /^Call / })).toHaveLength(1);

    // Tab from the selected radio reaches its links, then its button.
    await user.tab();
    expect(within(option).getByRole('link', { name: /^Call / })).toHaveFocus();
    await user.tab();
    await user.tab();
    await user.tab();
    expect(within(option).getByRole('button', { name: 'Use this site' })).toHaveFocus();

    await user.keyboard('{Shift>}{Tab}{Tab}{Tab}{Tab}{/Shift}');
    await user.keyboard('{ArrowDown}');
    const second = screen.getByRole('radio', { name: /Bay Clinic 2/ });
    expect(second).toBeChecked();
    expect(within(second.closest('li') as HTMLElement).getByRole('button', { name: 'Use this site' })).toBeVisible();
    expect(screen.getAllByRole('button', { name: 'Use this site' })).toHaveLength(1);
  });

  it('starts empty without a drug-test ZIP, and sends the filters chosen', async () => {
    const searches = mockSearch(() => HttpResponse.json(results([], 100)) as Response);
    logInAs(6);
    const { user } = renderApp('/collection-site');
    const zip = await screen.findByRole('textbox', { name: /ZIP code/ });
    expect(zip).toHaveValue('');
    expect(screen.getByText('Enter your ZIP code and search to see the sites near you.')).toBeVisible();
    await user.type(zip, '94103');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Distance' }), '100');
    await user.click(screen.getByText('Filters', { selector: 'summary' }));
    await user.click(screen.getByRole('checkbox', { name: 'Doing DOT collections' }));
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(
      await screen.findByRole('heading', { name: 'No sites within 100 miles of 94103 (San Francisco, CA)' }),
    ).toBeVisible();
    expect(screen.getByText('Try a larger distance or fewer filters.')).toBeVisible();
    expect(searches).toEqual([{ zip: '94103', radius: '100', dot: 'true' }]);
  });

  it('shows the sites in pages of 10, nearest first as the server sorted them; "Show more sites" focuses the first new one', async () => {
    const sites = Array.from({ length: 23 }, (_, i) => site(i + 1, { distanceMiles: 0.5 + i * 0.7 }));
    mockSearch(() => HttpResponse.json(results(sites)) as Response);
    logInAs(6, { payload: withDrugZip(6) });
    const { user } = renderApp('/collection-site');
    await screen.findByRole('heading', { name: '23 sites within 25 miles of 94103 (San Francisco, CA)' });
    const group = screen.getByRole('radiogroup', { name: 'Choose a collection site' });
    const names = () =>
      within(group)
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('value'));
    expect(names()).toEqual(sites.slice(0, 10).map((s) => String(s.id)));
    expect(screen.getByText('Showing 10 of 23 sites')).toHaveAttribute('role', 'status');

    await user.click(screen.getByRole('button', { name: 'Show more sites' }));
    expect(names()).toEqual(sites.slice(0, 20).map((s) => String(s.id)));
    const eleventh = within(group).getAllByRole('radio')[10];
    expect(eleventh).toHaveAttribute('value', '11');
    expect(eleventh).toHaveFocus();
    expect(eleventh).not.toBeChecked();
    expect(screen.getByText('Showing 20 of 23 sites')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Show more sites' }));
    expect(names()).toEqual(sites.map((s) => String(s.id)));
    expect(within(group).getAllByRole('radio')[20]).toHaveFocus();
    expect(screen.getByText('Showing 23 of 23 sites')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show more sites' })).not.toBeInTheDocument();

    // A new search starts again at the first 10.
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await expect.poll(() => names()).toHaveLength(10);
  });

  it('lists 10 sites or fewer without paging', async () => {
    mockSearch(() => HttpResponse.json(results(Array.from({ length: 10 }, (_, i) => site(i + 1)))) as Response);
    logInAs(6, { payload: withDrugZip(6) });
    renderApp('/collection-site');
    await screen.findByRole('heading', { name: '10 sites within 25 miles of 94103 (San Francisco, CA)' });
    expect(screen.getAllByRole('radio')).toHaveLength(10);
    expect(screen.queryByText(/^Showing /)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show more sites' })).not.toBeInTheDocument();
  });

  it('folds the filters under "Filters", which says how many are on', async () => {
    mockSearch();
    logInAs(6, { payload: withDrugZip(6) });
    const { user } = renderApp('/collection-site');
    const summary = await screen.findByText('Filters', { selector: 'summary' });
    const disclosure = summary.closest('details') as HTMLDetailsElement;
    expect(disclosure.open).toBe(false);
    expect(summary).toHaveTextContent(/^Filters$/);

    await user.click(summary);
    expect(disclosure.open).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: 'Open now' }));
    await user.click(screen.getByRole('checkbox', { name: 'Doing DOT collections' }));
    expect(summary).toHaveTextContent('Filters2 on');
    await user.click(screen.getByRole('checkbox', { name: 'Open now' }));
    expect(summary).toHaveTextContent('Filters1 on');
  });

  it("puts the server's ZIP error next to the field", async () => {
    mockSearch(
      () =>
        HttpResponse.json(
          {
            errorMessage: 'validation error',
            errorFields: [{ field: 'zip', message: 'We could not find ZIP code 00000.' }],
          },
          { status: 422 },
        ) as Response,
    );
    logInAs(6);
    const { user } = renderApp('/collection-site');
    const zip = await screen.findByRole('textbox', { name: /ZIP code/ });
    await user.type(zip, '00000');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await expect.poll(() => zip.getAttribute('aria-invalid')).toBe('true');
    expect(zip).toHaveAccessibleDescription(expect.stringContaining('We could not find ZIP code 00000.'));
    expect(zip).toHaveFocus();
  });

  it('refuses a ZIP code that is not 5 digits without asking the server', async () => {
    const searches = mockSearch();
    logInAs(6);
    const { user } = renderApp('/collection-site');
    const zip = await screen.findByRole('textbox', { name: /ZIP code/ });
    await user.type(zip, '941');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Enter a 5-digit ZIP code.')).toBeVisible();
    expect(searches).toEqual([]);
  });

  it.each([
    ['to self-pay when a payment is owed and not made', true, null, 7, '/self-pay'],
    ['to the end when the payment is already authorized', true, paymentAuthorization, 2, '/'],
    ['to the end when no payment is required', false, null, 2, '/'],
  ])(
    'saves the site chosen, then moves the status on %s',
    async (_name, paymentRequired, authorization, statusId, path) => {
      mockSearch();
      const moves = mockStatusMove();
      let saved: unknown;
      server.use(
        http.put('/api/v2/user/collection-site', async ({ request }) => {
          saved = await request.json();
          return HttpResponse.json(chosen({ site: site(2) }));
        }),
        http.get('/api/v2/payment', () =>
          HttpResponse.json({ required: true, amount: '25.00', currency: 'USD', exemptState: null, authorization }),
        ),
        // What the next page reads.
        http.get('/api/v2/user/collection-site', () => HttpResponse.json(chosen({ site: site(2) }))),
      );
      logInAs(6, { payload: withDrugZip(6, paymentRequired) });
      const { user, router } = renderApp('/collection-site');
      const second = await screen.findByRole('radio', { name: /Bay Clinic 2/ });
      await user.click(screen.getByRole('radio', { name: /Bay Clinic 1/ }));
      // The arrow keys move the choice.
      await user.keyboard('{ArrowDown}');
      expect(second).toBeChecked();
      await user.click(screen.getByRole('button', { name: 'Use this site' }));
      await expect.poll(() => router.state.location.pathname).toBe(path);
      expect(saved).toEqual({ siteId: 2 });
      expect(moves).toEqual([{ statusId }]);
    },
  );

  it("shows the server's refusal of a site and keeps the search and the selection", async () => {
    mockSearch();
    const moves = mockStatusMove();
    server.use(
      http.put('/api/v2/user/collection-site', () =>
        HttpResponse.json(
          {
            errorMessage: 'validation error',
            errorFields: [
              {
                field: 'siteId',
                message: 'This collection site does not exist. Search again and choose one from the list.',
              },
            ],
          },
          { status: 422 },
        ),
      ),
    );
    logInAs(6, { payload: withDrugZip(6) });
    const { user, router } = renderApp('/collection-site');
    await user.click(await screen.findByRole('radio', { name: /Bay Clinic 1/ }));
    await user.click(screen.getByRole('button', { name: 'Use this site' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This collection site does not exist. Search again and choose one from the list.',
    );
    expect(screen.getByRole('radio', { name: /Bay Clinic 1/ })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Use this site' })).toBeEnabled();
    expect(router.state.location.pathname).toBe('/collection-site');
    expect(moves).toEqual([]);
  });
});

describe('/collection-site-update', () => {
  it('explains why the site can no longer be changed and links home', async () => {
    server.use(
      http.get('/api/v2/user/collection-site', () =>
        HttpResponse.json(chosen({ changeable: false, collectedAt: '2026-11-21T15:04:05Z' })),
      ),
    );
    logInAs(2);
    renderApp('/collection-site-update');
    expect(await screen.findByText('Your collection site can no longer be changed')).toBeVisible();
    expect(screen.getByText(/Your sample was collected on November 21, 2026/)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('button', { name: 'Search' })).not.toBeInTheDocument();
  });

  it('shows the current site first, then saves another with a message and goes home', async () => {
    mockSearch();
    let saved: unknown;
    let current = chosen();
    server.use(
      http.get('/api/v2/user/collection-site', () => HttpResponse.json(current)),
      http.put('/api/v2/user/collection-site', async ({ request }) => {
        saved = await request.json();
        current = chosen({ site: site(2) });
        return HttpResponse.json(current);
      }),
      http.get('/api/v2/payment', () =>
        HttpResponse.json({ required: false, amount: '0.00', currency: 'USD', exemptState: null, authorization: null }),
      ),
      http.get('/api/v2/user/profile/documents', () =>
        HttpResponse.json({ documentTypes: [], documents: [], reports: [], writable: true, maxUploadBytes: 1 }),
      ),
    );
    logInAs(2);
    const { user, router } = renderApp('/collection-site-update');
    expect(await screen.findByRole('heading', { level: 1, name: 'Change your collection site' })).toBeVisible();
    const currentCard = await screen.findByRole('region', { name: 'Your current site' });
    expect(within(currentCard).getByRole('heading', { name: 'Bay Clinic 1' })).toBeVisible();
    const first = await screen.findByRole('radio', { name: /Bay Clinic 1/ });
    expect(first).toHaveAccessibleName(expect.stringContaining('Your current site'));
    // The current site again saves nothing: no button, a note instead.
    await user.click(first);
    expect(screen.getByText('This is already your collection site.')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Use this site' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: /Bay Clinic 2/ }));
    await user.click(screen.getByRole('button', { name: 'Use this site' }));
    await expect.poll(() => router.state.location.pathname).toBe('/');
    expect(saved).toEqual({ siteId: 2 });
    expect(await screen.findByText('Collection site updated')).toBeVisible();
  });
});
