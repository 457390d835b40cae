import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { server } from '@/testing/server';
import type { PdfForm } from '../api/pdf-forms';
import { FormsSummary } from '../components/forms-summary';

const form = (id: number, title: string, required: boolean, submittedAt?: string): PdfForm => ({
  id,
  code: `form-${id}`,
  title,
  description: '',
  required,
  fieldNames: [],
  submitted: submittedAt ? { name: `form-${id}.pdf`, size: 1, sha256: '', submittedAt } : null,
});

function renderSummary(list: PdfForm[]) {
  server.use(http.get('/api/v2/user/profile/fillable-pdf-forms', () => HttpResponse.json(list)));
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <FormsSummary />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('the forms on the hub', () => {
  it('lists each form with whether it was sent, and links to the forms page', async () => {
    renderSummary([
      form(3, 'Idaho background check release (sample)', true),
      form(4, 'Motor vehicle record request (sample)', false, '2026-11-20T10:00:00Z'),
    ]);
    const card = await screen.findByRole('region', { name: 'Forms' });
    const [first, second] = within(card).getAllByRole('listitem');
    expect(first).toHaveTextContent(/^Idaho background check release \(sample\)\s*Required\s*Not submitted yet$/);
    expect(second).toHaveTextContent(
      /^Motor vehicle record request \(sample\)\s*Optional\s*Submitted on November 20, 2026$/,
    );
    expect(within(card).getByRole('link', { name: 'Go to forms' })).toHaveAttribute('href', '/fillable-pdf-form');
  });

  it('shows nothing when no form applies', async () => {
    const { container } = renderSummary([]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(container).toBeEmptyDOMElement();
  });
});
