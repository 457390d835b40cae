import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '@/lib/query-client';
import type { DotRelease } from '@/lib/subject';
import { legalDocuments, subjectData, userPayload } from '@/testing/fixtures';
import { logInAs, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';
import { adoptSignature, forgetAdoptedSignature } from '../../lib/adopted-signature';
import { DotReleaseList } from '../dot-release-list';
import { PendingDocuments } from '../pending-documents';

const road: DotRelease = {
  entryId: 'a1a1a1a1a1a1a1a1',
  employerName: 'Road & Rail Freight',
  documentId: 3,
  signed: false,
  signedAt: null,
};
const blue: DotRelease = {
  entryId: 'c3c3c3c3c3c3c3c3',
  employerName: 'Blue Line Transit',
  documentId: 3,
  signed: true,
  signedAt: '2026-11-20T15:04:05Z',
};

/** GET /api/v2/user/subject with these releases; signing one marks it signed, as the server does. */
function subjectServer(initial: DotRelease[]) {
  let releases = initial;
  const signed: { id: number; body: Record<string, unknown> }[] = [];
  const contentQueries: string[] = [];
  let subjectReads = 0;
  server.use(
    http.get('/api/v2/user/subject', () => {
      subjectReads++;
      return HttpResponse.json({
        payload: {
          location: null,
          noDataAvailable: { credential: false, education: false, employment: false },
          insufficientDataBypass: false,
          bypassNotes: '',
          services: {},
          serviceStatuses: {},
          aliases: [],
          addresses: [],
          pages: [],
          dotReleases: releases,
          readyToSubmit: false,
        },
      });
    }),
    http.get('/api/v2/document/:id', ({ params, request }) => {
      const instance = new URL(request.url).searchParams.get('instance') ?? '';
      contentQueries.push(instance);
      const employer = releases.find((r) => r.entryId === instance)?.employerName ?? '';
      return HttpResponse.json({
        id: Number(params.id),
        title: 'DOT release',
        version: 1,
        documentType: 'dot_release',
        instance,
        employerName: employer,
        content: `<p><strong>Previous employer this release is for:</strong> ${employer.replace('&', '&amp;')}</p><h1>DOT release</h1><p>I authorize.</p>`,
        contentSha256: `sha-${instance}`,
      });
    }),
    http.post('/api/v2/user/document/:id/signature', async ({ params, request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      signed.push({ id: Number(params.id), body });
      releases = releases.map((r) =>
        r.entryId === body.instance ? { ...r, signed: true, signedAt: '2026-11-22T10:00:00Z' } : r,
      );
      return HttpResponse.json(legalDocuments([{ id: 3, documentType: 'dot_release', title: 'DOT release' }]), {
        status: 201,
      });
    }),
  );
  return { signed, contentQueries, reads: () => subjectReads };
}

function renderList() {
  const user = userEvent.setup();
  const view = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <DotReleaseList />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { user, ...view };
}

beforeEach(() => {
  queryClient.clear();
  logInAs(1);
  forgetAdoptedSignature();
  // jsdom has no canvas: the typed signature draws on a stand-in.
  const context = new Proxy({}, { get: (target: Record<string, unknown>, key: string) => (target[key] ??= vi.fn()) });
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(context as unknown as CanvasRenderingContext2D);
  vi.spyOn(HTMLCanvasElement.prototype, 'toDataURL').mockReturnValue('data:image/png;base64,iVBORw0KGgo=');
});

describe('the DOT release list', () => {
  it('shows nothing without a DOT-regulated employer', async () => {
    const api = subjectServer([]);
    const { container } = renderList();
    await waitFor(() => expect(api.reads()).toBe(1));
    await waitFor(() => expect(screen.queryByText(/Loading/)).not.toBeInTheDocument());
    expect(container).toBeEmptyDOMElement();
  });

  it('lists one release per employer: signed ones with their print page and PDF, the others with a Sign button', async () => {
    subjectServer([road, blue]);
    renderList();
    const section = await screen.findByRole('region', { name: 'DOT releases' });
    const items = within(section).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Road & Rail Freight');
    expect(items[0]).toHaveTextContent('Not signed yet');
    expect(
      within(items[0]).getByRole('button', { name: 'Sign the DOT release for Road & Rail Freight' }),
    ).toBeInTheDocument();
    expect(items[1]).toHaveTextContent('Signed November 20, 2026');
    expect(
      within(items[1]).getByRole('link', { name: 'View and print the DOT release for Blue Line Transit' }),
    ).toHaveAttribute('href', '/print/dot-release#release-c3c3c3c3c3c3c3c3');
    expect(
      within(items[1]).getByRole('button', { name: 'Download signed PDF: DOT release for Blue Line Transit' }),
    ).toBeInTheDocument();
    expect(within(items[1]).queryByRole('button', { name: /^Sign/ })).not.toBeInTheDocument();
  });

  it('signs a release in a dialog that shows the text for that employer and asks the question', async () => {
    const api = subjectServer([road, blue]);
    const { user } = renderList();
    await user.click(await screen.findByRole('button', { name: 'Sign the DOT release for Road & Rail Freight' }));
    const dialog = await screen.findByRole('dialog', { name: 'DOT release for Road & Rail Freight' });
    const text = await within(dialog).findByRole('article', { name: 'DOT release' });
    expect(text).toHaveTextContent('Previous employer this release is for: Road & Rail Freight');
    expect(api.contentQueries).toContain('a1a1a1a1a1a1a1a1');
    // Below the dialog's title: the document's h1 becomes an h3.
    expect(within(text).getByRole('heading', { name: 'DOT release' })).toHaveProperty('tagName', 'H3');

    const form = within(dialog).getByRole('form', { name: 'Sign the DOT release for Road & Rail Freight' });
    const submit = within(form).getByRole('button', { name: 'Sign this document' });
    expect(within(form).getByLabelText('First name')).toHaveValue('Dana');
    expect(within(form).getByLabelText('Last name')).toHaveValue('Demo');
    await user.type(within(form).getByLabelText('Last four digits of your Social Security number'), '1234');
    await user.click(within(form).getByRole('button', { name: 'Type your signature instead' }));
    await user.type(within(form).getByLabelText('Type your full name as your signature'), 'Dana Demo');
    // The question is required: still to do until it is answered.
    expect(submit).toBeDisabled();
    expect(within(form).getByText(/answer the question about pre-employment tests/)).toBeInTheDocument();
    const question = within(form).getByRole('radiogroup', {
      name: /did you test positive on, or refuse, a pre-employment drug or alcohol test/,
    });
    await user.click(within(question).getByLabelText('No'));
    expect(submit).toBeEnabled();
    const readsBefore = api.reads();
    await user.click(submit);

    await waitFor(() => expect(api.signed).toHaveLength(1));
    expect(api.signed[0].id).toBe(3);
    expect(api.signed[0].body).toMatchObject({
      instance: 'a1a1a1a1a1a1a1a1',
      testedPositiveOrRefused: 'no',
      firstName: 'Dana',
      lastName: 'Demo',
      lastFourSSN: '1234',
      contentSha256: { '3': 'sha-a1a1a1a1a1a1a1a1' },
    });
    expect(api.signed[0].body.signature).toMatch(/^data:image\/png;base64,/);
    // The subject is read again (the checklist's readyToSubmit depends on it) and the list shows it signed.
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(api.reads()).toBeGreaterThan(readsBefore));
    const view = await screen.findByRole('link', { name: 'View and print the DOT release for Road & Rail Freight' });
    // The Sign button it was opened from is gone: the focus goes to what replaced it, not to the page's start.
    await waitFor(() => expect(view).toHaveFocus());
  });

  it('a signature adopted earlier (in setup, or for another release) is offered, and applied only with the press', async () => {
    const api = subjectServer([road, { ...blue, signed: false, signedAt: null }]);
    adoptSignature('data:image/png;base64,QWRvcHRlZA==');
    const { user } = renderList();
    await user.click(await screen.findByRole('button', { name: 'Sign the DOT release for Road & Rail Freight' }));
    const dialog = await screen.findByRole('dialog', { name: 'DOT release for Road & Rail Freight' });
    const form = await within(dialog).findByRole('form', { name: 'Sign the DOT release for Road & Rail Freight' });
    expect(within(form).getByRole('img', { name: 'Your signature as you gave it' })).toHaveAttribute(
      'src',
      'data:image/png;base64,QWRvcHRlZA==',
    );
    expect(within(form).queryByRole('img', { name: /Signature drawing area/ })).not.toBeInTheDocument();
    expect(within(form).getByLabelText('First name')).toHaveValue('Dana');
    expect(within(form).getByLabelText('Last name')).toHaveValue('Demo');
    await user.type(within(form).getByLabelText('Last four digits of your Social Security number'), '1234');
    await user.click(within(form).getByLabelText('No'));
    expect(api.signed).toHaveLength(0);
    await user.click(within(form).getByRole('button', { name: 'Sign this document' }));
    await waitFor(() => expect(api.signed).toHaveLength(1));
    expect(api.signed[0].body).toMatchObject({
      instance: 'a1a1a1a1a1a1a1a1',
      signature: 'data:image/png;base64,QWRvcHRlZA==',
    });

    // The other employer's release is a document of its own: offered again, signed with its own press.
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(await screen.findByRole('button', { name: 'Sign the DOT release for Blue Line Transit' }));
    const other = await screen.findByRole('form', { name: 'Sign the DOT release for Blue Line Transit' });
    expect(within(other).getByRole('img', { name: 'Your signature as you gave it' })).toBeInTheDocument();
    // Its form starts from what the portal knows, not from what the last one was given.
    expect(within(other).getByLabelText('First name')).toHaveValue('Dana');
    expect(api.signed).toHaveLength(1);
  });

  it('the first release signed in a visit gives the signature the next ones offer', async () => {
    subjectServer([road, { ...blue, signed: false, signedAt: null }]);
    const { user } = renderList();
    await user.click(await screen.findByRole('button', { name: 'Sign the DOT release for Road & Rail Freight' }));
    const form = await screen.findByRole('form', { name: 'Sign the DOT release for Road & Rail Freight' });
    expect(within(form).getByLabelText('First name')).toHaveValue('Dana');
    expect(within(form).getByLabelText('Last name')).toHaveValue('Demo');
    await user.type(within(form).getByLabelText('Last four digits of your Social Security number'), '1234');
    await user.click(within(form).getByLabelText('No'));
    await user.click(within(form).getByRole('button', { name: 'Type your signature instead' }));
    expect(within(form).getByLabelText('Type your full name as your signature')).toHaveValue('');
    await user.type(within(form).getByLabelText('Type your full name as your signature'), 'Dana Demo');
    await user.click(within(form).getByRole('button', { name: 'Sign this document' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(await screen.findByRole('button', { name: 'Sign the DOT release for Blue Line Transit' }));
    const other = await screen.findByRole('form', { name: 'Sign the DOT release for Blue Line Transit' });
    expect(within(other).getByRole('img', { name: 'Your signature as you gave it' })).toHaveAttribute(
      'src',
      'data:image/png;base64,iVBORw0KGgo=',
    );
  });

  it("shows the server's field errors next to the fields", async () => {
    subjectServer([road]);
    server.use(
      http.post('/api/v2/user/document/:id/signature', () =>
        HttpResponse.json(
          {
            errorMessage: 'validation error',
            errorFields: [
              { field: 'lastName', message: 'The last name must match the name on your application: Demo' },
            ],
          },
          { status: 422 },
        ),
      ),
    );
    const { user } = renderList();
    await user.click(await screen.findByRole('button', { name: 'Sign the DOT release for Road & Rail Freight' }));
    const dialog = await screen.findByRole('dialog');
    const form = await within(dialog).findByRole('form');
    expect(within(form).getByLabelText('First name')).toHaveValue('Dana');
    expect(within(form).getByLabelText('Last name')).toHaveValue('Demo');
    await user.type(within(form).getByLabelText('Last four digits of your Social Security number'), '1234');
    await user.click(within(form).getByLabelText('Yes'));
    await user.click(within(form).getByRole('button', { name: 'Type your signature instead' }));
    await user.type(within(form).getByLabelText('Type your full name as your signature'), 'Dana Demo');
    await user.click(within(form).getByRole('button', { name: 'Sign this document' }));
    expect(
      await within(form).findAllByText('The last name must match the name on your application: Demo'),
    ).not.toHaveLength(0);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });
});

describe('signed DOT releases after setup', () => {
  function releaseDocuments() {
    const [release] = legalDocuments([{ id: 3, documentType: 'dot_release', title: 'DOT release', signed: true }]);
    const signature = {
      ...release.signature!,
      id: 31,
      contentSha256: 'sha-blue',
      fields: { testedPositiveOrRefused: 'no' },
    };
    return [
      ...legalDocuments([{ id: 2, documentType: 'disclosure', title: 'Background check disclosure', signed: true }]),
      {
        ...release,
        instances: [
          { instance: 'a1a1a1a1a1a1a1a1', employerName: 'Road & Rail Freight', signature: null },
          { instance: 'c3c3c3c3c3c3c3c3', employerName: 'Blue Line Transit', signature },
        ],
      },
    ];
  }

  it('the print page prints each signed release as signed, with its own signature block and answer', async () => {
    const asked: string[] = [];
    server.use(
      http.get('/api/v2/user/document', () => HttpResponse.json(releaseDocuments())),
      http.get('/api/v2/document/:id', ({ params, request }) => {
        const query = new URL(request.url).searchParams;
        asked.push(`${String(params.id)}?${query.toString()}`);
        const employer = query.get('instance') ? 'Blue Line Transit' : '';
        return HttpResponse.json({
          id: Number(params.id),
          title: 'DOT release',
          version: 1,
          documentType: 'dot_release',
          content: `<p>Release for ${employer || 'each employer'}.</p>`,
          contentSha256: 'sha',
        });
      }),
    );
    logInAs(1);
    renderApp('/print/dot-release');
    const release = await screen.findByRole('article', { name: 'DOT release: Blue Line Transit' });
    expect(release).toHaveAttribute('id', 'release-c3c3c3c3c3c3c3c3');
    expect(await within(release).findByText('Release for Blue Line Transit.')).toBeInTheDocument();
    const block = within(release).getByRole('region', { name: 'Signature: DOT release for Blue Line Transit' });
    expect(block).toHaveTextContent('sha-blue');
    expect(block).toHaveTextContent(/pre-employment drug or alcohol test.*No/);
    expect(asked).toContain('3?signed=true&instance=c3c3c3c3c3c3c3c3');
    // The unsigned release of the other employer is not printed.
    expect(screen.queryByRole('article', { name: /Road & Rail/ })).not.toBeInTheDocument();
  });

  it('the signed documents list each signed release by its employer', async () => {
    server.use(http.get('/api/v2/user/document', () => HttpResponse.json(releaseDocuments())));
    logInAs(1);
    renderApp('/profile');
    const list = await screen.findByRole('region', { name: 'Your signed documents' });
    expect(
      await within(list).findByRole('link', { name: 'View and print: DOT release: Blue Line Transit' }),
    ).toHaveAttribute('href', '/print/dot-release#release-c3c3c3c3c3c3c3c3');
    expect(
      within(list).getByRole('button', { name: 'Download signed PDF: DOT release: Blue Line Transit' }),
    ).toBeInTheDocument();
    expect(within(list).queryByText(/Road & Rail/)).not.toBeInTheDocument();
  });
});

describe('documents that became applicable after setup', () => {
  it('are shown with their signing step after setup', async () => {
    server.use(
      http.get('/api/v2/user/data', () =>
        HttpResponse.json(
          subjectData({
            residency: { nonUs: false, state: 'US-TX', county: 0 },
            employment: { nonUs: false, state: 'US-TX', county: 0 },
          }),
        ),
      ),
      http.get('/api/v2/user/document', () =>
        HttpResponse.json(
          legalDocuments([
            { id: 2, documentType: 'disclosure', title: 'Background check disclosure', signed: true },
            { id: 8, documentType: 'fleet_policy', title: 'Fleet safety policy' },
          ]),
        ),
      ),
    );
    logInAs(1);
    render(
      <QueryClientProvider client={queryClient}>
        <PendingDocuments />
      </QueryClientProvider>,
    );
    const section = await screen.findByRole('region', { name: 'Documents to sign' });
    expect(await within(section).findByRole('form', { name: 'Sign: Fleet safety policy' })).toBeInTheDocument();
  });

  it('are not shown during setup, where the setup wizard asks for them', async () => {
    server.use(
      http.get('/api/v2/user/document', () =>
        HttpResponse.json(legalDocuments([{ id: 8, documentType: 'fleet_policy', title: 'Fleet safety policy' }])),
      ),
    );
    logInAs(0);
    const { container } = render(
      <QueryClientProvider client={queryClient}>
        <PendingDocuments />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(queryClient.getQueryData(['legal-documents'])).toBeDefined());
    expect(container).toBeEmptyDOMElement();
  });

  describe('ask once', () => {
    it("fills in the names and the SSN's last four digits the portal knows, marked, and sends them as shown", async () => {
      logInAs(5, { payload: userPayload(5, { personalInformation: { ssnLastFour: '4321' } }) });
      const api = subjectServer([road]);
      const { user } = renderList();
      await user.click(await screen.findByRole('button', { name: 'Sign the DOT release for Road & Rail Freight' }));
      const form = await screen.findByRole('form', { name: 'Sign the DOT release for Road & Rail Freight' });
      const first = within(form).getByLabelText('First name');
      expect(first).toHaveValue('Dana');
      expect(first).toHaveAccessibleDescription('Filled in from your invitation: check it');
      const lastFour = within(form).getByLabelText('Last four digits of your Social Security number');
      expect(lastFour).toHaveValue('4321');
      expect(lastFour).toHaveAccessibleDescription('Filled in from your personal information: check it');
      // Editable: the applicant's correction is what is sent.
      await user.clear(within(form).getByLabelText('Last name'));
      await user.type(within(form).getByLabelText('Last name'), 'demo');
      await user.click(within(form).getByLabelText('No'));
      await user.click(within(form).getByRole('button', { name: 'Type your signature instead' }));
      await user.type(within(form).getByLabelText('Type your full name as your signature'), 'Dana Demo');
      await user.click(within(form).getByRole('button', { name: 'Sign this document' }));
      await waitFor(() => expect(api.signed).toHaveLength(1));
      expect(api.signed[0].body).toMatchObject({ firstName: 'Dana', lastName: 'demo', lastFourSSN: '4321' });
    });

    it('without an SSN, fills in the identification given instead, the country by its name', async () => {
      logInAs(5, {
        payload: userPayload(5, {
          personalInformation: {
            ssnLastFour: '',
            noSsnFlag: true,
            identificationCountry: 'MX',
            countryIdentificationNumber: 'CURP-123',
          },
        }),
      });
      subjectServer([road]);
      const { user } = renderList();
      await user.click(await screen.findByRole('button', { name: 'Sign the DOT release for Road & Rail Freight' }));
      const form = await screen.findByRole('form', { name: 'Sign the DOT release for Road & Rail Freight' });
      expect(within(form).getByLabelText(/I do not have a/)).toBeChecked();
      const country = within(form).getByLabelText('Country that issued your identification');
      expect(country).toHaveValue('Mexico');
      expect(country).toHaveAccessibleDescription('Filled in from your personal information: check it');
      expect(within(form).getByLabelText('Identification number')).toHaveValue('CURP-123');
      expect(within(form).queryByLabelText('Last four digits of your Social Security number')).not.toBeInTheDocument();
    });

    it('leaves the SSN digits empty and unmarked when none is on file', async () => {
      subjectServer([road]);
      const { user } = renderList();
      await user.click(await screen.findByRole('button', { name: 'Sign the DOT release for Road & Rail Freight' }));
      const form = await screen.findByRole('form', { name: 'Sign the DOT release for Road & Rail Freight' });
      const lastFour = within(form).getByLabelText('Last four digits of your Social Security number');
      expect(lastFour).toHaveValue('');
      expect(lastFour).not.toHaveAccessibleDescription(/Filled in/);
    });
  });
});
