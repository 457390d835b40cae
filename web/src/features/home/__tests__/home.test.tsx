import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { legalDocuments, paymentAuthorization, userPayload } from '@/testing/fixtures';
import { logInAs, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';
import type { PaymentAuthorization } from '@/lib/payment';

const site = {
  id: 941031,
  name: 'Bay Clinic',
  address: { street: '1 Market St', city: 'San Francisco', state: 'CA', zip: '94103' },
  phone: '(415) 555-0100',
  timeZone: 'America/Los_Angeles',
  hours: [{ day: 'Monday', opens: '07:00', closes: '17:00' }],
  services: ['urine'],
  lat: 37.77,
  lon: -122.41,
};

function mockHome({
  paid = null,
  chosen = null,
  changeable = true,
  reports = [],
  documents = null,
}: {
  paid?: PaymentAuthorization | null;
  chosen?: typeof site | null;
  changeable?: boolean;
  reports?: { kind: string; name: string; size: number; createdAt: string }[];
  documents?: Record<string, unknown> | null;
} = {}) {
  server.use(
    http.get('/api/v2/payment', () =>
      HttpResponse.json({ required: true, amount: '25.00', currency: 'USD', exemptState: null, authorization: paid }),
    ),
    http.get('/api/v2/user/collection-site', () =>
      HttpResponse.json({
        site: chosen,
        chosenAt: chosen ? '2026-11-20T15:04:05Z' : null,
        collectedAt: null,
        changeable: chosen ? changeable : false,
      }),
    ),
    http.get('/api/v2/user/profile', () =>
      HttpResponse.json({
        id: 11,
        number: 'P-0011',
        statusId: 19,
        orders: [{ id: 21, statusId: 2, statusText: 'Finalization Complete' }],
      }),
    ),
    http.get('/api/v2/user/order/21', () =>
      HttpResponse.json({
        id: 21,
        statusId: 2,
        services: [
          {
            id: 1,
            code: 'crim',
            name: 'Criminal search',
            alias: 'crim',
            status: 'pending',
            hasError: false,
            state: 'waiting-third-party',
            reason: null,
            estimate: { earliest: '2026-12-01', latest: '2026-12-03' },
            updatedAt: '2026-11-30T09:00:00Z',
          },
          {
            id: 2,
            code: 'drug',
            name: 'Drug test',
            alias: 'drug',
            status: 'pending',
            hasError: false,
            state: 'pending',
          },
        ],
      }),
    ),
    http.get('/api/v2/user/profile/documents', () =>
      HttpResponse.json(
        documents ?? { documentTypes: [], documents: [], reports, writable: true, deletable: false, maxUploadBytes: 1 },
      ),
    ),
    http.get('/api/v2/user/document', () =>
      HttpResponse.json(legalDocuments([{ id: 1, documentType: 'disclosure', title: 'Disclosure', signed: true }])),
    ),
  );
}

async function openHome() {
  const payload = userPayload(2, { personalInformation: { firstName: 'Dana' } });
  payload.packageServices = [
    { id: 1, code: 'crim', name: 'Criminal search', alias: 'crim' },
    { id: 2, code: 'drug', name: 'Drug test', alias: 'drug' },
  ];
  logInAs(2, { payload });
  const view = renderApp('/');
  await screen.findByRole('heading', { level: 1, name: "You're all set" });
  return view;
}

describe('home, the final state', () => {
  it('says the information was submitted, what happens next, and where the screening stands', async () => {
    mockHome();
    await openHome();
    expect(screen.getByText('Thank you, Dana. Your information has been submitted to Acme Logistics.')).toBeVisible();
    const next = screen.getByRole('region', { name: 'What happens next' });
    expect(within(next).getByText('Acme Logistics is told the result once the screening is complete.')).toBeVisible();
    const screening = await screen.findByRole('region', { name: 'Your screening' });
    expect(within(screening).getByText('In progress')).toBeVisible();
    expect(within(screening).getByText('Order 21')).toBeVisible();
    // The order's status in plain words: the internal step name never reaches the applicant.
    expect(within(screening).getByText('Submitted: the screening is under way')).toBeVisible();
    expect(within(screening).queryByText('Finalization Complete')).not.toBeInTheDocument();
    expect(within(screening).getByText('Drug test')).toBeVisible();
    // What happens next and when: the latest estimate of the open checks.
    expect(within(screening).getByText('We expect your screening to be complete by December 3, 2026.')).toBeVisible();
    const services = within(screening).getByRole('list', { name: 'Services of order 21' });
    expect(within(services).getAllByRole('listitem')[0]).toHaveTextContent(
      'Criminal searchWaiting for someone elseExpected between December 1, 2026 and December 3, 2026',
    );
  });

  it('shows no receipt and no site card when nothing was paid or chosen', async () => {
    mockHome();
    await openHome();
    await screen.findByRole('region', { name: 'Your screening' });
    // Everything has answered once the signed documents are listed.
    await screen.findByText('Disclosure');
    expect(screen.queryByRole('region', { name: 'Payment receipt' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Your collection site' })).not.toBeInTheDocument();
  });

  it('shows the receipt of the hold placed', async () => {
    mockHome({ paid: paymentAuthorization });
    await openHome();
    const receipt = await screen.findByRole('region', { name: 'Payment receipt' });
    expect(within(receipt).getByText('$25.00')).toBeVisible();
    expect(within(receipt).getByText('Visa ending in 4242')).toBeVisible();
    expect(within(receipt).getByText('auth_123')).toBeVisible();
    expect(within(receipt).getByText('November 20, 2026')).toBeVisible();
  });

  it('shows the chosen site with a way to change it while it is changeable', async () => {
    mockHome({ chosen: site });
    await openHome();
    const card = await screen.findByRole('region', { name: 'Your collection site' });
    expect(within(card).getByRole('heading', { name: 'Bay Clinic' })).toBeVisible();
    expect(within(card).getByText('1 Market St, San Francisco, CA 94103')).toBeVisible();
    expect(within(card).getByRole('link', { name: 'Change site' })).toHaveAttribute('href', '/collection-site-update');
    expect(within(card).getByRole('link', { name: 'Directions to Bay Clinic (opens in a new tab)' })).toBeVisible();
  });

  it('leaves out the change link once the site cannot be changed', async () => {
    mockHome({ chosen: site, changeable: false });
    await openHome();
    const card = await screen.findByRole('region', { name: 'Your collection site' });
    expect(within(card).queryByRole('link', { name: 'Change site' })).not.toBeInTheDocument();
  });

  it('says what to do if something changes and whom to ask', async () => {
    mockHome();
    await openHome();
    const next = screen.getByRole('region', { name: 'What happens next' });
    expect(within(next).getByRole('heading', { name: 'If something changes' })).toBeVisible();
    expect(within(next).getByText(/tell the Acme Logistics hiring team/)).toBeVisible();
    expect(within(next).getByRole('heading', { name: 'Questions' })).toBeVisible();
    expect(within(next).getByText(/Most screenings are complete within 3 to 5 business days/)).toBeVisible();
  });

  it('folds away what was signed and the files sent, closed, with their counts; what was sent has no Delete', async () => {
    mockHome({
      documents: {
        documentTypes: [{ type: 'diploma', title: 'Diploma', description: '', required: false }],
        documents: [
          {
            id: 7,
            documentType: 'diploma',
            name: 'diploma.pdf',
            contentType: 'application/pdf',
            size: 100,
            sha256: 'a',
            createdAt: '2026-11-22T10:00:00Z',
          },
          {
            id: 8,
            documentType: 'diploma',
            name: 'transcript.pdf',
            contentType: 'application/pdf',
            size: 100,
            sha256: 'b',
            createdAt: '2026-11-22T10:00:00Z',
          },
        ],
        reports: [],
        writable: true,
        deletable: false,
        maxUploadBytes: 1000,
      },
    });
    const { user } = await openHome();
    const signed = (await screen.findByText('Documents you signed (1)')).closest('details') as HTMLDetailsElement;
    const files = (await screen.findByText('Files you sent (2)')).closest('details') as HTMLDetailsElement;
    expect(signed.open).toBe(false);
    expect(files.open).toBe(false);
    expect(screen.getByText('Disclosure')).not.toBeVisible();
    await user.click(screen.getByText('Files you sent (2)'));
    expect(files.open).toBe(true);
    expect(within(files).getByRole('button', { name: 'Download transcript.pdf' })).toBeVisible();
    expect(within(files).queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
  });

  it('links to the print page of what was signed, and lists the reports, each a link to the viewer', async () => {
    mockHome({ reports: [{ kind: 'report', name: 'report.pdf', size: 1000, createdAt: '2026-11-22T10:00:00Z' }] });
    const { user } = await openHome();
    await user.click(await screen.findByText('Documents you signed (1)'));
    expect(await screen.findByRole('link', { name: /View and print.*Disclosure|Disclosure/ })).toHaveAttribute(
      'href',
      expect.stringMatching(/^\/print\/disclosure/),
    );
    const reports = await screen.findByRole('region', { name: 'Reports' });
    expect(within(reports).getByRole('link', { name: 'Read your background report' })).toHaveAttribute(
      'href',
      '/report',
    );
  });

  it('shows a failed read with a way to try again', async () => {
    mockHome();
    server.use(
      http.get('/api/v2/payment', () => HttpResponse.json({ errorMessage: 'Payment service down' }, { status: 502 })),
    );
    await openHome();
    expect(
      await screen.findByText('Your payment receipt could not be loaded: Payment service down', {}, { timeout: 8000 }),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeVisible();
  });
});
