import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { notifications } from '@/lib/notifications';
import { createQueryClient } from '@/lib/query-client';
import type { ChecklistPage, DataAlias, FieldDefinition, ServiceEntry, SubjectService } from '@/lib/subject';
import { logInAs } from '@/testing/render-app';
import { server } from '@/testing/server';
import { ServicePage } from '../components/service-page';
import { dateField, dateOf, typeDate } from '@/testing/dates';

const field = (
  api: string,
  name: string,
  type: FieldDefinition['type'],
  rank: number,
  more: Partial<FieldDefinition> = {},
) =>
  ({
    id: rank,
    api,
    name,
    type,
    format: '',
    options: [],
    requiredFlag: false,
    rank,
    reference: '',
    flag: '',
    requiredWhen: null,
    visibleWhen: null,
    ...more,
  }) satisfies FieldDefinition;

const employmentFields = [
  field('employer_name', 'Employer name', 'text', 1, { requiredFlag: true }),
  field('start_date', 'Start date', 'date', 2, { requiredFlag: true, notFuture: true }),
  field('current', 'I work here now', 'checkbox', 3),
  field('end_date', 'End date', 'date', 4, {
    after: 'start_date',
    visibleWhen: { not: { field: 'current', equals: true } },
    requiredWhen: { field: 'current', equals: false },
  }),
  field('state', 'State', 'state', 5, { reference: 'states' }),
  field('reason', 'Reason for leaving', 'select', 6, {
    options: [
      { value: 'quit', label: 'Quit' },
      { value: 'laid_off', label: 'Laid off' },
    ],
  }),
  field('duties', 'Duties', 'textarea', 7),
  field('since', 'In this role since', 'month', 8),
  field('contact', 'May we contact them?', 'radio', 9, {
    options: [
      { value: 'yes', label: 'Yes' },
      { value: 'no', label: 'No' },
    ],
  }),
  field('supervisor_phone', 'Supervisor phone', 'phone', 10, {
    visibleWhen: { field: 'contact', equals: 'yes' },
    requiredWhen: { field: 'contact', equals: 'yes' },
  }),
];

const services: SubjectService[] = [
  { alias: 'employment', service: { id: 1, code: 'emps', name: 'Employment', fields: employmentFields } },
  {
    alias: 'employment',
    service: {
      id: 2,
      code: 'iemp',
      name: 'International employment',
      // employer_name again with a higher rank: the emps field (rank 1) wins.
      fields: [
        field('employer_name', 'Name (international)', 'text', 30),
        field('employer_country', 'Country', 'country', 11),
      ],
    },
  },
  {
    alias: 'employment',
    service: {
      id: 3,
      code: 'dots',
      name: 'DOT employment',
      fields: [field('employer_dot', 'This employer is regulated by the DOT', 'checkbox', 20, { flag: 'dot' })],
    },
  },
  {
    alias: 'professional',
    service: {
      id: 4,
      code: 'pref',
      name: 'References',
      fields: [field('reference_name', 'Name', 'text', 1, { requiredFlag: true })],
    },
  },
];

const pages: ChecklistPage[] = [
  { id: 'personal', path: '/personal', title: 'Personal Information', required: true, complete: true, missing: [] },
  { id: 'employment', path: '/employment', title: 'Employment', required: true, complete: false, missing: [] },
  {
    id: 'credential',
    path: '/credential',
    title: 'Licenses and Credentials',
    required: true,
    complete: false,
    missing: [],
  },
];

type Saved = { services?: Record<string, ServiceEntry[]>; noDataAvailable?: Record<string, boolean> };

/** The mock server's answers; returns the bodies the page posted. */
function serve(saved: Saved = {}, profile?: () => Response, subject: () => unknown = () => ({ pages })) {
  const posted: { data: unknown[]; profile: unknown[] } = { data: [], profile: [] };
  const doc = (body: Saved) => ({
    payload: {
      data: {
        location: {},
        noDataAvailable: { credential: false, education: false, employment: false, ...body.noDataAvailable },
        services: Object.fromEntries(
          Object.entries(body.services ?? {}).map(([alias, entries]) => [
            alias,
            entries.map((e, i) => ({ id: e.id ?? `new${i}`, ...e })),
          ]),
        ),
      },
    },
  });
  server.use(
    http.get('/api/v2/user/service', () => HttpResponse.json({ payload: services })),
    http.get('/api/v2/user/data', () => HttpResponse.json(doc(saved))),
    http.post('/api/v2/user/data', async ({ request }) => {
      const body = (await request.json()) as Saved;
      posted.data.push(body);
      return HttpResponse.json(doc(body));
    }),
    http.post('/api/v2/user/profile', async ({ request }) => {
      const body = (await request.json()) as Saved;
      posted.profile.push(body);
      return profile ? profile() : HttpResponse.json(doc(body));
    }),
    http.get('/api/v2/user/subject', () => HttpResponse.json({ payload: subject() })),
  );
  return posted;
}

async function renderPage(alias: DataAlias = 'employment', search = '') {
  logInAs(4);
  const router = createMemoryRouter(
    [
      { path: `/${alias}`, element: <ServicePage alias={alias} footer={<p>DOT releases here</p>} /> },
      { path: '*', element: <p>Another page</p> },
    ],
    { initialEntries: [`/${alias}${search}`] },
  );
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  const form = await screen.findByRole('form');
  return { user, router, form };
}

const acme = {
  id: 'aaaaaaaaaaaaaaaa',
  employer_name: 'Acme',
  start_date: '2020-01-15',
  current: true,
  contact: 'no',
};
const beta = {
  id: 'bbbbbbbbbbbbbbbb',
  employer_name: 'Beta',
  start_date: '2015-03-01',
  current: false,
  end_date: '2019-12-31',
  contact: 'no',
};

describe('a service page', () => {
  it('draws the merged fields of the alias by type, in rank order, with the DOT flag and its hint', async () => {
    serve();
    const { form } = await renderPage();
    const entry = within(form).getByRole('group', { name: 'Employer 1' });
    expect(within(entry).getByLabelText(/^Employer name/)).toHaveAttribute('type', 'text');
    expect(within(entry).getByLabelText(/^Employer name/)).toHaveAttribute('aria-required', 'true');
    expect(within(entry).queryByLabelText(/Name \(international\)/)).not.toBeInTheDocument();
    expect(within(dateField(within(entry), 'Start date')).getByLabelText('Day')).toHaveAttribute(
      'inputmode',
      'numeric',
    );
    expect(within(entry).getByLabelText('I work here now')).toHaveAttribute('type', 'checkbox');
    expect(within(entry).getByLabelText(/^Duties/).tagName).toBe('TEXTAREA');
    expect(dateField(within(entry), 'In this role since')).toHaveAccessibleDescription(/For example, 3 2019/);
    expect(within(entry).getByRole('radiogroup', { name: 'May we contact them? (optional)' })).toBeInTheDocument();
    const state = within(entry).getByLabelText(/^State/);
    expect(within(state).getByRole('option', { name: 'California' })).toHaveValue('US-CA');
    const country = within(entry).getByLabelText(/^Country/);
    expect(within(country).getByRole('option', { name: 'Canada' })).toHaveValue('CA');
    const dot = within(entry).getByLabelText('This employer is regulated by the DOT');
    expect(dot).toHaveAccessibleDescription(/Department of Transportation/);
    // Rank order: the labels as they come in the entry.
    const labels = within(entry)
      .getAllByRole('textbox')
      .map((el) => el.getAttribute('name'));
    expect(labels).toEqual([
      'entries.0.employer_name',
      ...['day', 'month', 'year'].map((part) => `entries.0.start_date-${part}`),
      ...['day', 'month', 'year'].map((part) => `entries.0.end_date-${part}`),
      'entries.0.duties',
      'entries.0.since-month',
      'entries.0.since-year',
    ]);
    expect(screen.getByText('DOT releases here')).toBeInTheDocument();
  });

  it('hides and requires fields live as the rules say', async () => {
    serve();
    const { user, form } = await renderPage();
    expect(within(dateField(within(form), 'End date')).getByLabelText('Day')).toHaveAttribute('aria-required', 'true');
    expect(within(form).queryByLabelText(/^Supervisor phone/)).not.toBeInTheDocument();
    await user.click(within(form).getByLabelText('I work here now'));
    expect(within(form).queryByRole('group', { name: /^End date/ })).not.toBeInTheDocument();
    await user.click(within(form).getByLabelText('Yes'));
    expect(within(form).getByLabelText(/^Supervisor phone/)).toHaveAttribute('aria-required', 'true');
    await user.click(within(form).getByLabelText('No'));
    expect(within(form).queryByLabelText(/^Supervisor phone/)).not.toBeInTheDocument();
  });

  it('shows a field message only once it was touched', async () => {
    serve();
    const { user, form } = await renderPage();
    expect(within(form).queryByText('Employer name is required.')).not.toBeInTheDocument();
    await user.click(within(form).getByLabelText(/^Employer name/));
    await user.tab();
    expect(await within(form).findByText('Employer name is required.')).toBeInTheDocument();
    await typeDate(user, dateField(within(form), 'Start date'), '2030-01-01');
    expect(await within(form).findByText('Start date cannot be in the future.')).toBeInTheDocument();
  });

  it('loads the saved entries, adds and removes entries with named buttons', async () => {
    serve({ services: { employment: [acme, beta] } });
    const { user, form } = await renderPage();
    expect(within(form).getByRole('group', { name: 'Employer 1: Acme' })).toBeInTheDocument();
    const second = within(form).getByRole('group', { name: 'Employer 2: Beta' });
    expect(dateOf(dateField(within(second), 'End date'))).toBe('2019-12-31');
    await user.click(within(form).getByRole('button', { name: 'Add another employer' }));
    const third = within(form).getByRole('group', { name: 'Employer 3' });
    await user.type(within(third).getByLabelText(/^Employer name/), 'Gamma');
    expect(within(form).getByRole('group', { name: 'Employer 3: Gamma' })).toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Remove employer 2' }));
    expect(within(form).queryByRole('group', { name: /Beta/ })).not.toBeInTheDocument();
    expect(within(form).getByRole('group', { name: 'Employer 2: Gamma' })).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: 'Add another employer' })).toHaveFocus();
  });

  it('saves and continues: the validated save with ids kept and hidden values dropped, then the next page', async () => {
    const posted = serve({ services: { employment: [{ ...acme, end_date: '2021-01-01' }] } });
    const { user, form, router } = await renderPage();
    await user.click(within(form).getByRole('button', { name: 'Save and continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/credential'));
    expect(posted.profile).toEqual([
      {
        services: {
          employment: [
            {
              id: 'aaaaaaaaaaaaaaaa',
              employer_name: 'Acme',
              start_date: '2020-01-15',
              current: true,
              state: '',
              reason: '',
              duties: '',
              since: '',
              contact: 'no',
              employer_country: '',
              employer_dot: false,
            },
          ],
        },
        noDataAvailable: { employment: false },
      },
    ]);
    expect(notifications.getSnapshot().map((s) => s.text)).toContain('Profile successfully saved');
  });

  it('opened from the review, saves and returns to it', async () => {
    serve({ services: { employment: [acme] } });
    const { user, form, router } = await renderPage('employment', '?return=review');
    await user.click(within(form).getByRole('button', { name: 'Save and continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/confirmation'));
  });

  it('a DOT employer saved: stays, says a release was added to the list and why the count grew, and offers it', async () => {
    const release = { entryId: 'aaaaaaaaaaaaaaaa', employerName: 'Acme', documentId: 9, signed: false, signedAt: null };
    const withRelease = [
      ...pages,
      { id: 'dot-releases', path: '/employment', title: 'DOT Releases', required: true, complete: false, missing: [] },
    ];
    let saved = false;
    serve({ services: { employment: [acme] } }, undefined, () =>
      saved ? { pages: withRelease, dotReleases: [release] } : { pages, dotReleases: [] },
    );
    server.use(
      http.post('/api/v2/user/profile', () => {
        saved = true;
        return HttpResponse.json({
          payload: { data: { services: { employment: [{ ...acme, employer_dot: true }] } } },
        });
      }),
    );
    const { user, form, router } = await renderPage();
    await user.click(within(form).getByLabelText('This employer is regulated by the DOT'));
    await user.click(within(form).getByRole('button', { name: 'Save and continue' }));
    const notice = (await screen.findByText('Sign the DOT release for Acme')).closest('[role="status"]') as HTMLElement;
    await waitFor(() => expect(notice).toHaveFocus());
    expect(notice).toHaveTextContent('Sign the DOT release for Acme');
    expect(notice).toHaveTextContent('a DOT release for it was added to your list (now 1 of 4 done)');
    expect(within(notice).getByRole('button', { name: 'Go to the DOT release' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/employment');
  });

  it('a submit the rules refuse sends nothing and focuses a summary of the fields', async () => {
    const posted = serve();
    const { user, form } = await renderPage();
    await user.click(within(form).getByRole('button', { name: 'Save and continue' }));
    const summary = await within(form).findByRole('alert');
    await waitFor(() => expect(summary).toHaveFocus());
    expect(
      within(summary)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Employer 1: Employer name', 'Employer 1: Start date', 'Employer 1: End date']);
    expect(posted.profile).toEqual([]);
  });

  it("puts the server's errorFields on the entry's fields and keeps what was typed", async () => {
    serve({ services: { employment: [acme, beta] } }, () =>
      HttpResponse.json(
        {
          errorMessage: 'validation error',
          errorFields: [{ field: 'employment.1.end_date', message: 'End date cannot be before Start date.' }],
        },
        { status: 422 },
      ),
    );
    const { user, form, router } = await renderPage();
    await user.click(within(form).getByRole('button', { name: 'Save and continue' }));
    const second = within(form).getByRole('group', { name: 'Employer 2: Beta' });
    const end = dateField(within(second), 'End date');
    await waitFor(() =>
      expect(end).toHaveAccessibleDescription(expect.stringContaining('End date cannot be before Start date.')),
    );
    expect(within(end).getByLabelText('Day')).toHaveFocus();
    expect(dateOf(end)).toBe('2019-12-31');
    const summary = within(form).getByRole('alert');
    expect(summary).toHaveTextContent('Error saving Profile');
    expect(within(summary).getByRole('link', { name: 'Employer 2: End date' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/employment');
  });

  it('shows the errorMessage when it names no field', async () => {
    serve({}, () =>
      HttpResponse.json(
        { errorMessage: 'Your profile has been submitted; contact the employer to change it.' },
        { status: 409 },
      ),
    );
    const { user, form } = await renderPage();
    await user.click(within(form).getByLabelText('I have no employment to report'));
    await user.click(within(form).getByRole('button', { name: 'Save and continue' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'Error saving Profile: Your profile has been submitted; contact the employer to change it.',
    );
  });

  it("says 'Error fetching document Ids' when the in-flight data cannot be loaded, and tries again", async () => {
    serve();
    // A 4xx is not retried by the query client: the first answer is the one shown.
    let failures = 1;
    server.use(
      http.get('/api/v2/user/data', () =>
        failures-- > 0 ? HttpResponse.json({ errorMessage: 'Not allowed' }, { status: 403 }) : undefined,
      ),
    );
    logInAs(4);
    const router = createMemoryRouter([{ path: '/employment', element: <ServicePage alias="employment" /> }], {
      initialEntries: ['/employment'],
    });
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={createQueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    const alert = await screen.findByRole('alert', {}, { timeout: 10000 });
    expect(alert).toHaveTextContent('Error fetching document Ids');
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('form')).toBeInTheDocument();
  });

  it('nothing to report sends the single unavailable entry in place of the list', async () => {
    const posted = serve({ services: { employment: [acme] } });
    const { user, form, router } = await renderPage();
    await user.click(within(form).getByLabelText('I have no employment to report'));
    expect(within(form).queryByRole('group', { name: /Employer 1/ })).not.toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Save and continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/credential'));
    expect(posted.profile).toEqual([
      { services: { employment: [{ data_available: false }] }, noDataAvailable: { employment: true } },
    ]);
  });

  it('a saved "nothing to report" comes back ticked, and unticking brings back an empty entry', async () => {
    serve({ services: { employment: [{ data_available: false }] }, noDataAvailable: { employment: true } });
    const { user, form } = await renderPage();
    const none = within(form).getByLabelText('I have no employment to report');
    expect(none).toBeChecked();
    await user.click(none);
    expect(
      within(form.querySelector('[name="entries.0.employer_name"]')!.closest('fieldset')!).getByLabelText(
        /^Employer name/,
      ),
    ).toHaveValue('');
  });

  it('save for later sends the entries as they are, unchecked, and says Data Saved', async () => {
    const posted = serve();
    const { user, form } = await renderPage();
    await user.type(within(form).getByLabelText(/^Employer name/), 'Half done');
    await user.click(within(form).getByRole('button', { name: 'Save for later' }));
    await waitFor(() => expect(notifications.getSnapshot().map((s) => s.text)).toContain('Data Saved'));
    expect(posted.data).toHaveLength(1);
    expect(posted.data[0]).toMatchObject({
      services: { employment: [{ employer_name: 'Half done', start_date: '', end_date: '' }] },
      noDataAvailable: { employment: false },
    });
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('professional references have no "nothing to report" choice', async () => {
    const posted = serve();
    const { user, form } = await renderPage('professional');
    expect(within(form).queryByRole('checkbox')).not.toBeInTheDocument();
    await user.type(within(form).getByLabelText(/^Name/), 'Pat Smith');
    await user.click(within(form).getByRole('button', { name: 'Save and continue' }));
    await waitFor(() =>
      expect(posted.profile).toEqual([{ services: { professional: [{ reference_name: 'Pat Smith' }] } }]),
    );
  });

  it('has no axe violations, with saved entries and a field in error', async () => {
    serve({ services: { employment: [acme, beta] } });
    const { user, form } = await renderPage();
    await user.click(within(form).getByLabelText('Yes', { selector: '[name="entries.0.contact"]' }));
    await user.click(within(form).getByLabelText(/^Supervisor phone/));
    await user.tab();
    await within(form).findByText('Supervisor phone is required.');
    // jsdom draws nothing: contrast is for the browser checks.
    const result = await axe.run(form, { rules: { 'color-contrast': { enabled: false } } });
    expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});
