import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { DraftStatus } from '@/components/draft-status/draft-status';
import { TextField } from '@/components/ui/text-field';
import { useAppForm } from '@/lib/form';
import { queryClient } from '@/lib/query-client';
import { DRAFT_DELAY_MS, useServerDraft } from '@/lib/server-draft';
import { logInAs } from '@/testing/render-app';
import { fakeDrafts, server } from '@/testing/server';

const schema = z.object({ city: z.string(), street: z.string(), password: z.string() });
type Values = z.infer<typeof schema>;
const saved: Values = { city: 'Boise', street: '150 N Capitol Blvd', password: '' };

function Form() {
  const form = useAppForm<Values>(schema, { defaultValues: saved });
  const draft = useServerDraft<Values>('addresses', form, { exclude: ['password'] });
  return (
    <form aria-label="Address">
      <DraftStatus draft={draft} />
      <TextField label="City" {...form.register('city')} />
      <TextField label="Street" {...form.register('street')} />
      <TextField label="Password" {...form.register('password')} />
      <output aria-label="dirty">{Object.keys(form.formState.dirtyFields).join(',')}</output>
    </form>
  );
}

/** A form whose draft holds a list, as the address history's does. */
function ListForm() {
  const form = useAppForm<{ rows: { street: string }[] }>(
    z.object({ rows: z.array(z.object({ street: z.string() })) }),
    {
      defaultValues: { rows: [{ street: '' }] },
    },
  );
  useServerDraft('rows', form);
  return (
    <form aria-label="Rows">
      <TextField label="Street" {...form.register('rows.0.street')} />
    </form>
  );
}

function renderForm() {
  logInAs(2);
  queryClient.clear();
  const user = userEvent.setup();
  const view = render(
    <QueryClientProvider client={queryClient}>
      <Form />
    </QueryClientProvider>,
  );
  const form = () => screen.getByRole('form', { name: 'Address' });
  return { ...view, user, form, field: (label: string) => within(form()).getByLabelText(label) };
}

describe('useServerDraft', () => {
  it('sends a list again when a field inside it changes after it was saved', async () => {
    const { puts } = fakeDrafts();
    logInAs(2);
    queryClient.clear();
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={queryClient}>
        <ListForm />
      </QueryClientProvider>,
    );
    const street = await screen.findByLabelText('Street');
    await waitFor(() => expect(queryClient.getQueryState(['drafts'])?.status).toBe('success'));
    await user.type(street, '9 Elm');
    await waitFor(() => expect(puts).toHaveLength(1), { timeout: DRAFT_DELAY_MS * 4 });
    await user.type(street, ' St');
    await waitFor(() => expect(puts).toHaveLength(2), { timeout: DRAFT_DELAY_MS * 4 });
    expect(puts[1]).toEqual({ form: 'rows', fields: { rows: [{ street: '9 Elm St' }] } });
  });

  it('waits for typing to stop, then sends only the changed fields, never an excluded one', async () => {
    const { puts, drafts } = fakeDrafts();
    const { user, field, form } = renderForm();
    await waitFor(() => expect(field('City')).toHaveValue('Boise'));
    await user.clear(field('City'));
    await user.type(field('City'), 'Boston');
    await user.type(field('Password'), 'secret');
    // Typed a moment ago: nothing sent yet.
    expect(puts).toHaveLength(0);
    await within(form()).findByText(/^Draft saved at/, {}, { timeout: DRAFT_DELAY_MS * 4 });
    expect(puts).toEqual([{ form: 'addresses', fields: { city: 'Boston' } }]);
    expect(drafts.get('addresses')).toEqual({ city: 'Boston' });

    // Back to the saved value: the field leaves the draft, and the draft with it.
    await user.clear(field('City'));
    await user.type(field('City'), 'Boise');
    await waitFor(() => expect(puts).toHaveLength(2), { timeout: DRAFT_DELAY_MS * 4 });
    expect(puts[1]).toEqual({ form: 'addresses', fields: { city: null } });
    expect(drafts.has('addresses')).toBe(false);
  });

  it('restores the server draft over the saved values and marks those fields changed', async () => {
    fakeDrafts({ addresses: { street: '1 Main St' }, 'service:education': { street: 'elsewhere' } });
    const { field, form } = renderForm();
    await waitFor(() => expect(field('Street')).toHaveValue('1 Main St'));
    expect(field('City')).toHaveValue('Boise');
    expect(within(form()).getByLabelText('dirty')).toHaveTextContent('street');
    expect(within(form()).getByText(/^Draft saved at/)).toBeInTheDocument();
  });

  it('discards after a confirmation: DELETE, and the saved values come back', async () => {
    const { drafts } = fakeDrafts({ addresses: { street: '1 Main St' } });
    const { user, field, form } = renderForm();
    await waitFor(() => expect(field('Street')).toHaveValue('1 Main St'));
    await user.click(within(form()).getByRole('button', { name: 'Discard draft' }));
    const dialog = await screen.findByRole('dialog', { name: 'Discard your draft?' });
    await user.click(within(dialog).getByRole('button', { name: 'Discard draft' }));
    await waitFor(() => expect(field('Street')).toHaveValue('150 N Capitol Blvd'));
    expect(drafts.has('addresses')).toBe(false);
    expect(within(form()).queryByRole('button', { name: 'Discard draft' })).not.toBeInTheDocument();
  });

  it('says a failed save will be retried, and Retry now sends it again', async () => {
    const { puts } = fakeDrafts();
    let fail = true;
    server.use(
      http.put('/api/v2/user/drafts/:form', async ({ request }) => {
        if (fail) return HttpResponse.json({ errorMessage: 'The database is unavailable.' }, { status: 503 });
        const body = (await request.json()) as { fields: Record<string, unknown> };
        puts.push({ form: 'addresses', fields: body.fields });
        return HttpResponse.json({
          payload: { form: 'addresses', updatedAt: '2026-11-22T10:42:00Z', expiresAt: '2026-12-22T10:42:00Z' },
        });
      }),
    );
    const { user, field, form } = renderForm();
    await waitFor(() => expect(field('City')).toHaveValue('Boise'));
    await user.type(field('Street'), ' Apt 2');
    await within(form()).findByText('Draft not saved: will retry', {}, { timeout: 5000 });
    fail = false;
    await user.click(within(form()).getByRole('button', { name: 'Retry now' }));
    await within(form()).findByText(/^Draft saved at/);
    expect(puts).toEqual([{ form: 'addresses', fields: { street: '150 N Capitol Blvd Apt 2' } }]);
  });
});
