import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { SubjectData, SubjectService } from '@/lib/subject';
import { subjectRead, userPayload } from '@/testing/fixtures';
import { logInAs, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

const services: SubjectService[] = [
  {
    alias: 'employment',
    service: {
      id: 1,
      code: 'emps',
      name: 'Employment',
      fields: [
        field('employer_name', 'Employer name', 10),
        field('start_date', 'Start date', 20),
        { ...field('employer_dot', 'DOT-regulated employer', 30), type: 'checkbox', flag: 'dot' },
      ],
    },
  },
  // The second service of the alias repeats a field at a higher rank: the lower one wins.
  {
    alias: 'employment',
    service: { id: 2, code: 'iemp', name: 'International employment', fields: [field('employer_name', 'Company', 40)] },
  },
  {
    alias: 'education',
    service: { id: 3, code: 'edus', name: 'Education', fields: [field('school_name', 'School', 10)] },
  },
];

function field(api: string, name: string, rank: number) {
  return {
    id: rank,
    api,
    name,
    type: 'text' as const,
    format: '',
    options: [],
    requiredFlag: true,
    rank,
    reference: '',
    flag: '',
    requiredWhen: null,
    visibleWhen: null,
  };
}

const complete = (): SubjectData =>
  subjectRead({
    pageList: [
      { id: 'personal', complete: true },
      { id: 'aliases', complete: true },
      { id: 'addresses', complete: true },
      { id: 'education', complete: true },
      { id: 'employment', complete: true },
    ],
    aliases: [
      {
        id: 'a1',
        type: 'maiden',
        firstName: 'Dana',
        middleName: '',
        lastName: 'Smith',
        suffix: '',
        from: '2001-01',
        to: '2010-06',
      },
    ],
    addresses: [
      {
        id: 'd1',
        country: 'US',
        street1: '1 Main St',
        street2: '',
        city: 'Austin',
        state: 'US-TX',
        zip: '78701',
        from: '2015-01',
        to: '',
        current: true,
      },
    ],
    services: {
      employment: [{ id: 'e1', employer_name: 'Acme Freight', start_date: '2020-02-01', employer_dot: true }],
    },
    noDataAvailable: { education: true, employment: false, credential: false, professional: false },
  });

function mock(subject: SubjectData) {
  server.use(
    http.get('/api/v2/user/subject', () => HttpResponse.json({ payload: subject })),
    http.get('/api/v2/user/service', () => HttpResponse.json({ payload: services })),
  );
}

async function openReview() {
  logInAs(1, {
    payload: userPayload(1, {
      personalInformation: {
        firstName: 'Dana',
        middleName: 'Q',
        lastName: 'Demo',
        ssnLastFour: '6789',
        dob: '1990-04-12',
      },
    }),
  });
  const view = renderApp('/confirmation');
  await screen.findByRole('region', { name: 'Submit' });
  return view;
}

describe('/confirmation', () => {
  it('shows everything entered, grouped with an edit link each, and the SSN by its last four only', async () => {
    mock(complete());
    await openReview();
    const personal = screen.getByRole('region', { name: 'Personal Information' });
    expect(personal).toHaveTextContent('Dana Q Demo');
    expect(personal).toHaveTextContent('ending in 6789');
    expect(personal).toHaveTextContent('Apr 12, 1990');
    expect(within(personal).getByRole('link', { name: 'Edit Personal Information' })).toHaveAttribute(
      'href',
      '/personal',
    );
    const aliases = screen.getByRole('region', { name: 'Other Names' });
    expect(aliases).toHaveTextContent('Dana Smith');
    expect(aliases).toHaveTextContent('Maiden name');
    expect(aliases).toHaveTextContent('Jan 2001 to Jun 2010');
    const addresses = screen.getByRole('region', { name: 'Address History' });
    expect(addresses).toHaveTextContent('1 Main St, Austin, TX, 78701, US');
    expect(addresses).toHaveTextContent('Jan 2015 to present');
    const employment = screen.getByRole('region', { name: 'Employment' });
    expect(within(employment).getByText('Employer name')).toBeInTheDocument();
    expect(within(employment).queryByText('Company')).not.toBeInTheDocument();
    expect(employment).toHaveTextContent('Acme Freight');
    expect(employment).toHaveTextContent('DOT-regulated employerYes');
    expect(screen.getByRole('region', { name: 'Education' })).toHaveTextContent('No education to report');
  });

  it('when ready, starts identity verification and goes on to /idv', async () => {
    let sent: unknown;
    mock(complete());
    server.use(
      http.post('/api/v2/user/subject/status', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json(userPayload(3));
      }),
      // The user is read again after a status move.
      http.get('/api/v2/user', () => HttpResponse.json(userPayload(3))),
    );
    const { user, router } = await openReview();
    const start = screen.getByRole('button', { name: 'Start identity verification' });
    expect(start).toBeEnabled();
    expect(screen.queryByText('Before you can submit, complete:')).not.toBeInTheDocument();
    await user.click(start);
    await expect.poll(() => router.state.location.pathname).toBe('/idv');
    expect(sent).toEqual({ statusId: 3 });
  });

  it("shows the server's message when it refuses the submission", async () => {
    mock(complete());
    server.use(
      http.post('/api/v2/user/subject/status', () =>
        HttpResponse.json({ errorMessage: 'Your profile is not complete yet: Employment.' }, { status: 409 }),
      ),
    );
    const { user } = await openReview();
    await user.click(screen.getByRole('button', { name: 'Start identity verification' }));
    expect(await screen.findByText('Your profile is not complete yet: Employment.')).toBeInTheDocument();
  });

  it('shows dates, months, states and countries in words, and the DOT releases with their state', async () => {
    const typed = (api: string, name: string, rank: number, type: 'date' | 'month' | 'state' | 'country') => ({
      ...field(api, name, rank),
      type,
      reference: type === 'state' ? 'states' : type === 'country' ? 'countries' : '',
    });
    server.use(
      http.get('/api/v2/user/subject', () =>
        HttpResponse.json({
          payload: subjectRead({
            pageList: [
              { id: 'employment', complete: true },
              { id: 'dot-releases', path: '/employment', title: 'DOT Releases', complete: false },
            ],
            services: {
              employment: [
                {
                  id: 'e1',
                  start_date: '2021-03-01',
                  left_month: '2022-07',
                  employer_state: 'US-TX',
                  employer_country: 'CA',
                },
              ],
            },
            dotReleases: [
              { entryId: 'e1', employerName: 'Acme Freight', documentId: 9, signed: false, signedAt: null },
            ],
          }),
        }),
      ),
      http.get('/api/v2/user/service', () =>
        HttpResponse.json({
          payload: [
            {
              alias: 'employment',
              service: {
                id: 1,
                code: 'emps',
                name: 'Employment',
                fields: [
                  typed('start_date', 'Start date', 10, 'date'),
                  typed('left_month', 'Left in', 20, 'month'),
                  typed('employer_state', 'State', 30, 'state'),
                  typed('employer_country', 'Country', 40, 'country'),
                ],
              },
            },
          ],
        }),
      ),
    );
    await openReview();
    const employment = screen.getByRole('region', { name: 'Employment' });
    expect(employment).toHaveTextContent('Start dateMar 1, 2021');
    expect(employment).toHaveTextContent('Left inJul 2022');
    expect(await within(employment).findByText('Texas')).toBeInTheDocument();
    expect(await within(employment).findByText('Canada')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: /DOT Releases/ })).toHaveTextContent('Acme FreightNot signed yet');
  });

  it('when not ready, says what is missing with links and keeps the button disabled', async () => {
    mock(subjectRead());
    await openReview();
    expect(screen.getByRole('button', { name: 'Start identity verification' })).toBeDisabled();
    const missing = screen.getByText('Before you can submit, complete:').closest('[role="alert"]') as HTMLElement;
    expect(within(missing).getByRole('link', { name: 'Other Names' })).toHaveAttribute('href', '/aliases');
    expect(within(missing).getByRole('link', { name: 'Employment' })).toHaveAttribute('href', '/employment');
    expect(missing).toHaveTextContent('Add your employers.');
    expect(within(missing).queryByRole('link', { name: 'Personal Information' })).not.toBeInTheDocument();
    // Never saved is not the same as "none": only a saved empty list says there is nothing to report.
    expect(screen.getByRole('region', { name: /Other Names/ })).toHaveTextContent('Nothing entered yet.');
    expect(screen.getByRole('region', { name: /Address History/ })).toHaveTextContent('Nothing entered yet.');
  });

  it('a saved empty list of other names says there are none to report', async () => {
    mock({ ...complete(), aliases: [] });
    await openReview();
    expect(screen.getByRole('region', { name: 'Other Names' })).toHaveTextContent('No other names to report');
  });
});
