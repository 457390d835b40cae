import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { ScreeningService } from '../api/order-services';
import { ServiceList, type ScreeningPhase } from '../components/service-list';
import { screeningSummary } from '../lib/summary';

const employment: ScreeningService = {
  id: 1,
  code: 'emps',
  name: 'Employment',
  alias: 'employment',
  status: 'pending',
  hasError: true,
  state: 'waiting-applicant',
  reason: {
    code: 'employer-not-responding',
    text: 'Your former employer has not answered yet. Uploading a W-2 or pay stub can speed this up.',
    action: { label: 'Upload a W-2 or pay stub', path: '/#documents' },
  },
  estimate: { earliest: '2026-12-07', latest: '2026-12-16' },
  updatedAt: '2026-11-30T09:00:00Z',
};
const criminal: ScreeningService = {
  id: 2,
  code: 'crim',
  name: 'Criminal',
  alias: 'crim',
  status: 'complete',
  hasError: false,
  state: 'complete',
  reason: null,
  estimate: null,
  updatedAt: '2026-12-01T15:00:00Z',
};
const court: ScreeningService = {
  ...criminal,
  id: 3,
  code: 'civl',
  name: 'Civil',
  status: 'pending',
  state: 'waiting-third-party',
  reason: { code: 'court-closed', text: 'The county court is closed until December 10, 2026.', action: null },
  estimate: { earliest: '2026-12-14', latest: '2026-12-14' },
};

function renderList(services: ScreeningService[], phase: ScreeningPhase) {
  const router = createMemoryRouter([
    { path: '/', element: <ServiceList services={services} phase={phase} label="Services of order 21" /> },
  ]);
  render(<RouterProvider router={router} />);
  return within(screen.getByRole('list', { name: 'Services of order 21' })).getAllByRole('listitem');
}

describe('the service list', () => {
  it('after submission says each state, why, what to do, when, and offers a dispute once complete', () => {
    const [emps, crim, civl] = renderList([employment, criminal, court], 'after');
    expect(emps).toHaveTextContent('Waiting for you');
    expect(within(emps).getByRole('alert')).toHaveTextContent('Uploading a W-2 or pay stub can speed this up.');
    expect(within(emps).getByRole('link', { name: 'Upload a W-2 or pay stub' })).toHaveAttribute('href', '/#documents');
    expect(emps).toHaveTextContent('Expected between December 7, 2026 and December 16, 2026');
    expect(emps).toHaveTextContent('Last updated November 30, 2026');
    expect(within(emps).queryByRole('link', { name: /Dispute it/ })).not.toBeInTheDocument();

    expect(crim).toHaveTextContent('Complete');
    expect(crim).not.toHaveTextContent('Expected');
    expect(within(crim).getByRole('link', { name: /^Something wrong\? Dispute it/ })).toHaveAttribute(
      'href',
      '/disputes/new?service=crim',
    );

    expect(civl).toHaveTextContent('Waiting for someone else');
    expect(civl).toHaveTextContent('The county court is closed until December 10, 2026.');
    expect(within(civl).queryByRole('alert')).not.toBeInTheDocument();
    expect(civl).toHaveTextContent('Expected on December 14, 2026');
  });

  it('before submission never says a check is under way: only what is left to give', () => {
    const [emps, crim] = renderList(
      [
        { ...employment, state: 'pending', reason: null, estimate: null, updatedAt: null },
        { ...criminal, status: 'pending', state: 'pending', updatedAt: null },
      ],
      'before',
    );
    expect(emps).toHaveTextContent('Waiting for your details');
    expect(crim).toHaveTextContent('Not started: submit your profile first');
    for (const item of [emps, crim]) {
      expect(item).not.toHaveTextContent(/In progress|Expected|Dispute/);
    }
  });

  it('reads an older server without the screening fields as pending', () => {
    const [item] = renderList(
      [{ id: 9, code: 'mvrs', name: 'Motor vehicle record', alias: 'mvrs', status: 'pending', hasError: false }],
      'after',
    );
    expect(item).toHaveTextContent('Not started yet');
  });
});

describe('the screening summary', () => {
  it('is the latest estimate of the open services, and who must act', () => {
    expect(screeningSummary([employment, criminal, court])).toEqual({
      kind: 'expected',
      latest: '2026-12-16',
      needsYou: 1,
    });
    expect(screeningSummary([criminal])).toEqual({ kind: 'complete' });
    expect(screeningSummary([{ ...court, estimate: null }])).toEqual({ kind: 'unknown', needsYou: 0 });
  });
});
