import { screen, waitFor, within } from '@testing-library/react';
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
        daytimeDialCode: '1',
        daytimePhoneNumber: '2024561111',
        driversLicense: 'D1112223',
        driversLicenseState: 'US-TX',
        cdlRequired: true,
        primaryNotificationMethod: { type: 'email', email: 'dana@example.com', text: '' },
      },
    }),
  });
  const view = renderApp('/confirmation');
  await screen.findByRole('region', { name: 'Declaration' });
  return view;
}

describe('/confirmation', () => {
  it('shows everything entered, each item with a Change link back to its page, and the SSN by its last four only', async () => {
    mock(complete());
    await openReview();
    const personal = screen.getByRole('region', { name: 'Personal Information' });
    expect(personal).toHaveTextContent('Dana Q Demo');
    expect(personal).toHaveTextContent('ending in 6789');
    expect(personal).toHaveTextContent('Apr 12, 1990');
    expect(personal).toHaveTextContent('Phone(202) 456-1111');
    expect(personal).toHaveTextContent("Driver's licenseD1112223, Texas");
    expect(personal).toHaveTextContent("Job requires a commercial driver's license (CDL)Yes");
    expect(personal).toHaveTextContent('Notify me byE-mail to dana@example.com');
    expect(within(personal).getByRole('link', { name: 'Change name' })).toHaveAttribute(
      'href',
      '/personal?return=review',
    );
    expect(within(personal).getByRole('link', { name: "Change driver's license" })).toBeInTheDocument();
    const aliases = screen.getByRole('region', { name: 'Other Names' });
    expect(aliases).toHaveTextContent('Dana Smith');
    expect(aliases).toHaveTextContent('Maiden name');
    expect(aliases).toHaveTextContent('Jan 2001 to Jun 2010');
    expect(within(aliases).getByRole('link', { name: 'Change other name Dana Smith' })).toHaveAttribute(
      'href',
      '/aliases?return=review',
    );
    const addresses = screen.getByRole('region', { name: 'Address History' });
    expect(addresses).toHaveTextContent('1 Main St, Austin, TX, 78701, US');
    expect(addresses).toHaveTextContent('Jan 2015 to present');
    const employment = screen.getByRole('region', { name: 'Employment' });
    expect(within(employment).getByText('Employer name')).toBeInTheDocument();
    expect(within(employment).queryByText('Company')).not.toBeInTheDocument();
    expect(employment).toHaveTextContent('Acme Freight');
    expect(employment).toHaveTextContent('DOT-regulated employerYes');
    expect(within(employment).getByRole('link', { name: 'Change Employment, entry 1' })).toHaveAttribute(
      'href',
      '/employment?return=review',
    );
    const education = screen.getByRole('region', { name: 'Education' });
    expect(education).toHaveTextContent('None to report');
    expect(within(education).getByRole('link', { name: 'Change education' })).toBeInTheDocument();
  });

  it('locks nothing until the declaration is made: the error summary links to it', async () => {
    let posted = false;
    mock(complete());
    server.use(
      http.post('/api/v2/user/subject/status', () => {
        posted = true;
        return HttpResponse.json(userPayload(3));
      }),
    );
    const { user, router } = await openReview();
    const declaration = screen.getByRole('region', { name: 'Declaration' });
    // What starting locks is said before it is done.
    expect(declaration).toHaveTextContent('Once you start, you can no longer change:');
    // What follows is this applicant's: the package's hold, with its amount.
    expect(declaration).toHaveTextContent('you pay for your screening: a hold of $25.00 on your card');
    expect(within(declaration).getByText('Address History')).toBeInTheDocument();
    expect(within(declaration).getByRole('link', { name: 'go back to your answers' })).toHaveAttribute(
      'href',
      '#review-answers',
    );
    await user.click(screen.getByRole('button', { name: 'Start identity verification' }));
    const summary = await screen.findByRole('alert');
    await waitFor(() => expect(summary).toHaveFocus());
    const link = within(summary).getByRole('link', {
      name: 'Confirm that the information you have given is true and complete, or change it first.',
    });
    await user.click(link);
    const box = screen.getByRole('checkbox', { name: /true and complete/ });
    expect(box).toHaveFocus();
    expect(box).toHaveAccessibleDescription(
      'Confirm that the information you have given is true and complete, or change it first.',
    );
    expect(posted).toBe(false);
    expect(router.state.location.pathname).toBe('/confirmation');
  });

  it('a Change link leads to the page and, once it is saved, back to the review', async () => {
    mock({ ...complete(), aliases: [] });
    let saved = false;
    server.use(
      http.get('/api/v2/user/subject/alias', () => HttpResponse.json({ payload: { aliases: [], saved: true } })),
      http.put('/api/v2/user/subject/alias', () => {
        saved = true;
        return HttpResponse.json({ payload: { aliases: [], saved: true } });
      }),
    );
    const { user, router } = await openReview();
    await user.click(screen.getByRole('link', { name: 'Change other names' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/aliases'));
    expect(router.state.location.search).toBe('?return=review');
    await screen.findByRole('form', { name: 'Other Names' });
    // The next page of the checklist would be none (all complete): the review is where it returns.
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/confirmation'));
    expect(saved).toBe(true);
    expect(await screen.findByRole('heading', { level: 1, name: 'Review and submit' })).toBeInTheDocument();
  });

  it('shows the documents sent and the forms, or none sent, each with a Change link', async () => {
    mock(
      subjectRead({
        pageList: [
          { id: 'additional-documents', path: '/additional-documents', title: 'Additional Documents', complete: true },
          { id: 'fillable-pdf-form', path: '/fillable-pdf-form', title: 'Forms', complete: false },
        ],
      }),
    );
    server.use(
      http.get('/api/v2/user/profile/documents', () =>
        HttpResponse.json({
          documentTypes: [
            { type: 'drivers_license', title: "Driver's license", description: '', required: true },
            { type: 'resume', title: 'Resume', description: '', required: false },
          ],
          documents: [
            {
              id: 1,
              documentType: 'drivers_license',
              name: 'licence-front.jpg',
              contentType: 'image/jpeg',
              size: 10,
              sha256: 'x',
              createdAt: '2026-11-20T15:04:05Z',
            },
          ],
          reports: [],
          writable: true,
          maxUploadBytes: 1,
        }),
      ),
      http.get('/api/v2/user/profile/fillable-pdf-forms', () =>
        HttpResponse.json([
          {
            id: 4,
            code: 'w4',
            title: 'W-4',
            description: '',
            required: true,
            fieldNames: [],
            submitted: null,
          },
        ]),
      ),
    );
    await openReview();
    const documents = screen.getByRole('region', { name: 'Additional Documents' });
    expect(await within(documents).findByText('licence-front.jpg')).toBeInTheDocument();
    expect(documents).toHaveTextContent('ResumeNone sent');
    expect(within(documents).getByRole('link', { name: 'Change Resume' })).toHaveAttribute(
      'href',
      '/additional-documents?return=review',
    );
    const forms = screen.getByRole('region', { name: /Forms/ });
    expect(await within(forms).findByText('None sent')).toBeInTheDocument();
    expect(within(forms).getByRole('link', { name: 'Change W-4' })).toHaveAttribute(
      'href',
      '/fillable-pdf-form?return=review',
    );
  });

  it('when ready and declared, starts identity verification and goes on to /idv', async () => {
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
    await user.click(screen.getByRole('checkbox', { name: /true and complete/ }));
    await user.click(start);
    await expect.poll(() => router.state.location.pathname).toBe('/idv');
    expect(sent).toEqual({ statusId: 3, declaration: true });
  });

  it("shows the server's message when it refuses the submission", async () => {
    mock(complete());
    server.use(
      http.post('/api/v2/user/subject/status', () =>
        HttpResponse.json({ errorMessage: 'Your profile is not complete yet: Employment.' }, { status: 409 }),
      ),
    );
    const { user } = await openReview();
    await user.click(screen.getByRole('checkbox', { name: /true and complete/ }));
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
    const releases = screen.getByRole('region', { name: /DOT Releases/ });
    expect(releases).toHaveTextContent('Acme FreightNot signed yet');
    expect(within(releases).getByRole('link', { name: 'Sign the DOT release for Acme Freight' })).toHaveAttribute(
      'href',
      '/employment?return=review',
    );
  });

  it('when not ready, says what is missing with links and keeps the button disabled', async () => {
    mock(subjectRead());
    await openReview();
    expect(screen.getByRole('button', { name: 'Start identity verification' })).toBeDisabled();
    const missing = screen.getByText('Before you can submit, complete:').closest('[role="alert"]') as HTMLElement;
    expect(within(missing).getByRole('link', { name: 'Other Names' })).toHaveAttribute(
      'href',
      '/aliases?return=review',
    );
    expect(within(missing).getByRole('link', { name: 'Employment' })).toHaveAttribute(
      'href',
      '/employment?return=review',
    );
    expect(missing).toHaveTextContent('Add your employers.');
    expect(within(missing).queryByRole('link', { name: 'Personal Information' })).not.toBeInTheDocument();
    // Never saved is not the same as "none": only a saved empty list says there is nothing to report.
    expect(screen.getByRole('region', { name: /Other Names/ })).toHaveTextContent('Nothing entered yet.');
    expect(screen.getByRole('region', { name: /Address History/ })).toHaveTextContent('Nothing entered yet.');
  });

  it('a saved empty list of other names says there are none to report', async () => {
    mock({ ...complete(), aliases: [] });
    await openReview();
    expect(screen.getByRole('region', { name: 'Other Names' })).toHaveTextContent('Other NamesNone to report');
  });
});
