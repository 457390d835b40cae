import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { subjectRead } from '@/testing/fixtures';
import { logInAs, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';
import type { HubProfile, OrderDetail } from '../api/profile-api';

function profile(overrides: Partial<HubProfile> = {}): HubProfile {
  return {
    id: 11,
    number: 'P-0011',
    statusId: 19,
    orders: [{ id: 21, statusId: 1, statusText: 'Setup Complete' }],
    ...overrides,
  };
}

type OrderAnswer = OrderDetail & { services: Record<string, unknown>[] };

function order(id: number, overrides: Partial<OrderAnswer> = {}): OrderAnswer {
  return {
    id,
    statusId: 1,
    statusText: 'Setup Complete',
    packageName: 'Driver screening',
    createdAt: '2026-11-20T15:04:05Z',
    services: [
      { id: 1, code: 'emps', name: 'Employment verification', alias: 'employment', status: 'pending', hasError: true },
      { id: 2, code: 'crim', name: 'Criminal search', alias: 'crim', status: 'complete', hasError: false },
    ],
    ...overrides,
  };
}

function mockHub({
  hubProfile = profile(),
  subject = subjectRead(),
  orderAnswer = (id: number) => HttpResponse.json(order(id)) as Response,
}: { hubProfile?: HubProfile; subject?: ReturnType<typeof subjectRead>; orderAnswer?: (id: number) => Response } = {}) {
  server.use(
    http.get('/api/v2/user/profile', () => HttpResponse.json(hubProfile)),
    http.get('/api/v2/user/subject', () => HttpResponse.json({ payload: subject })),
    http.get('/api/v2/user/order/:id', ({ params }) => orderAnswer(Number(params.id))),
  );
}

async function openHub() {
  logInAs(1);
  const view = renderApp('/profile');
  await screen.findByRole('heading', { level: 1, name: 'Welcome, Dana' });
  return view;
}

describe('the profile hub', () => {
  it('says before submission that the screening is not submitted yet, and what is still to do', async () => {
    mockHub();
    await openHub();
    const line = await screen.findByText('Your screening:');
    expect(within(line).getByText('Not submitted yet')).toBeInTheDocument();
    expect(line).toHaveTextContent('Still to do: Other Names, Address History, Employment.');
    expect(line).not.toHaveTextContent('Pending');
  });

  it('says once everything is filled in that it is ready to review and submit', async () => {
    mockHub({ subject: subjectRead({ pageList: [{ id: 'personal', complete: true }] }) });
    await openHub();
    const line = await screen.findByText('Your screening:');
    expect(line).toHaveTextContent('Not submitted yet Everything required is filled in: review it and submit.');
  });

  it("shows an order's status in plain words, never the internal status name", async () => {
    mockHub();
    await openHub();
    await screen.findByRole('list', { name: 'Services of order 21' });
    const orders = screen.getByRole('region', { name: 'Your orders' });
    expect(orders).toHaveTextContent('Waiting for your information');
    expect(orders).not.toHaveTextContent('Setup Complete');
  });

  it('lists what is missing with a link to each page, and continues with the first incomplete one', async () => {
    mockHub();
    await openHub();
    const checklist = await screen.findByRole('region', { name: 'What is still missing' });
    expect(within(checklist).getByRole('link', { name: 'Other Names' })).toHaveAttribute('href', '/aliases');
    expect(within(checklist).getByRole('link', { name: 'Employment' })).toHaveAttribute('href', '/employment');
    expect(within(checklist).getByText('Add your employers.')).toBeInTheDocument();
    expect(within(checklist).queryByRole('link', { name: 'Personal Information' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Continue with Other Names' })).toHaveAttribute('href', '/aliases');
  });

  it('offers Review and submit once everything is complete', async () => {
    mockHub({
      subject: subjectRead({
        pageList: [
          { id: 'personal', complete: true },
          { id: 'aliases', complete: true },
        ],
      }),
    });
    await openHub();
    expect(await screen.findByText('Nothing: every page is complete.')).toBeInTheDocument();
    const main = screen.getByRole('main');
    expect(within(main).getByRole('link', { name: 'Review and submit' })).toHaveAttribute('href', '/confirmation');
  });

  it("shows each order's services with their status and what needs the applicant's attention", async () => {
    mockHub();
    await openHub();
    const services = await screen.findByRole('list', { name: 'Services of order 21' });
    expect(screen.getByRole('heading', { name: 'Order 21: Driver screening' })).toBeInTheDocument();
    const items = within(services).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Employment verification');
    expect(items[0]).toHaveTextContent('Waiting for your details');
    expect(items[1]).toHaveTextContent('Criminal search');
    expect(items[1]).not.toHaveTextContent('Waiting for your details');
    // Before submission nothing has started, whatever the service says.
    expect(items[1]).toHaveTextContent('Not started: submit your profile first');
    expect(services).not.toHaveTextContent(/Pending|Complete|In progress/);
  });

  it("leaves out an order's detail that fails, silently", async () => {
    mockHub({
      hubProfile: profile({
        orders: [
          { id: 21, statusId: 1, statusText: 'Setup Complete' },
          { id: 22, statusId: 1, statusText: 'Setup Complete' },
        ],
      }),
      orderAnswer: (id) =>
        (id === 22
          ? HttpResponse.json({ errorMessage: 'Not found' }, { status: 404 })
          : HttpResponse.json(order(id))) as Response,
    });
    await openHub();
    expect(await screen.findByRole('list', { name: 'Services of order 21' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Order 22' })).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Services of order 22' })).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("names the employer and the provider's support contact", async () => {
    mockHub();
    await openHub();
    const contacts = await screen.findByRole('region', { name: 'Questions?' });
    expect(contacts).toHaveTextContent('Acme Logistics');
    expect(within(contacts).getByRole('link', { name: 'support@clearpath.example' })).toHaveAttribute(
      'href',
      'mailto:support@clearpath.example',
    );
  });

  it("says 'Error getting profile data' when the profile cannot be had, and tries again", async () => {
    let failing = true;
    mockHub();
    server.use(
      http.get('/api/v2/user/profile', () =>
        failing ? HttpResponse.json({ errorMessage: 'gone' }, { status: 404 }) : HttpResponse.json(profile()),
      ),
    );
    const { user } = await openHub();
    expect(await screen.findByText('Error getting profile data')).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Your signed documents' })).toBeInTheDocument();
    failing = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: 'What is still missing' })).toBeInTheDocument();
  });
});
