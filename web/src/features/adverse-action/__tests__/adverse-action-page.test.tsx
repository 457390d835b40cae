import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { logInAs, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';
import type { AdverseAction } from '../api/get-adverse-action';

const pre: AdverseAction = {
  state: 'pre',
  companyName: 'Acme Logistics',
  sentAt: '2026-11-25T15:00:00Z',
  waitingDays: 5,
  endsOn: '2026-12-03',
  businessDaysLeft: 3,
  note: 'The county record of 2019.',
  basedOn: ['CRIM'],
  finalAt: null,
  finalNote: '',
  summaryOfRights: '<p><strong>SAMPLE TEXT</strong></p><h1>A Summary of Your Rights</h1><p>You have rights.</p>',
};

function mockNotice(notice: AdverseAction | null) {
  server.use(http.get('/api/v2/user/adverse-action', () => HttpResponse.json(notice)));
}

describe('/adverse-action', () => {
  it('shows the pre-adverse notice with its countdown, note, report and rights', async () => {
    mockNotice(pre);
    logInAs(2);
    renderApp('/adverse-action');
    // Arrived at, the notice's own title takes focus (not the loading one it replaced).
    const title = await screen.findByRole('heading', { level: 1, name: 'Before Acme Logistics decides' });
    await waitFor(() => expect(title).toHaveFocus());
    expect(screen.getByText('3 business days left: until Thursday, December 3, 2026')).toBeInTheDocument();
    expect(screen.getByText('The county record of 2019.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Read your background check report' })).toHaveAttribute('href', '/report');
    expect(screen.getByRole('link', { name: 'Dispute something in the report' })).toHaveAttribute(
      'href',
      '/disputes/new',
    );
    const rights = screen.getByRole('region', { name: 'Your rights' });
    // The text's own h1 sits below the page's headings.
    expect(
      within(rights).getByRole('heading', { level: 3, name: 'A Summary of Your Rights', hidden: true }),
    ).toBeInTheDocument();
  });

  it('shows the final notice: the decision, that the provider did not make it, and the rights', async () => {
    mockNotice({
      ...pre,
      state: 'final',
      businessDaysLeft: 0,
      finalAt: '2026-12-04T15:00:00Z',
      finalNote: 'We will not go ahead.',
    });
    logInAs(2);
    renderApp('/adverse-action');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Acme Logistics has made its decision' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/did not make this decision/)).toBeInTheDocument();
    expect(screen.getByText(/free copy of your report within 60 days/)).toBeInTheDocument();
    expect(screen.getByText('We will not go ahead.')).toBeInTheDocument();
  });

  it('says there is no notice when none was sent', async () => {
    logInAs(2);
    renderApp('/adverse-action');
    expect(await screen.findByRole('heading', { level: 1, name: 'No notice' })).toBeInTheDocument();
  });
});

describe('/ with an adverse-action notice', () => {
  it('puts the notice first, with the days left and the way to it', async () => {
    mockNotice(pre);
    logInAs(2);
    renderApp('/');
    const card = await screen.findByRole('region', { name: 'Before Acme Logistics decides, you may respond' });
    expect(within(card).getByText('3 business days left: until Thursday, December 3, 2026')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Read the notice' })).toHaveAttribute('href', '/adverse-action');
  });
});
