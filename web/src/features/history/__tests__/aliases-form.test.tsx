import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { lookupQueries } from '@/lib/lookups';
import { notifications } from '@/lib/notifications';
import { queryClient } from '@/lib/query-client';
import { logInAs } from '@/testing/render-app';
import { server } from '@/testing/server';
import type { AliasesAnswer } from '../api/history-api';
import { AliasesForm } from '../components/aliases-form';

const today = new Date(2026, 10, 22);

async function renderForm(initial: AliasesAnswer = { aliases: [], saved: false }) {
  logInAs(1);
  // The page shows the form once the suffixes are there (a select filled before its options shows nothing).
  await queryClient.fetchQuery(lookupQueries.suffixes());
  const onSaved = vi.fn();
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={queryClient}>
      <AliasesForm initial={initial} onSaved={onSaved} today={today} />
    </QueryClientProvider>,
  );
  const form = await screen.findByRole('form', { name: 'Other Names' });
  return { user, form, onSaved };
}

const group = (name: string) => screen.getByRole('group', { name });

async function fillName(user: ReturnType<typeof userEvent.setup>, legend: string, first: string, last: string) {
  await user.selectOptions(within(group(legend)).getByLabelText(/Type of name/), 'Maiden name');
  await user.type(within(group(legend)).getByLabelText(/First name/), first);
  await user.type(within(group(legend)).getByLabelText(/Last name/), last);
}

function putAliases(answer: (body: { aliases: unknown[] }) => Response | Promise<Response>) {
  const sent: { aliases: unknown[] }[] = [];
  server.use(
    http.put('/api/v2/user/subject/alias', async ({ request }) => {
      const body = (await request.json()) as { aliases: unknown[] };
      sent.push(body);
      return answer(body);
    }),
  );
  return sent;
}

describe('the other names form', () => {
  it('starts a first visit with one name to fill, adds and removes names by their name', async () => {
    const { user, form } = await renderForm();
    expect(within(form).getAllByRole('group', { name: /^Other name/ })).toHaveLength(1);
    const from = within(group('Other name 1')).getByRole('group', { name: /Used from/ });
    expect(within(from).getByLabelText('Month')).toHaveAttribute('inputmode', 'numeric');
    await fillName(user, 'Other name 1', 'Dana', 'Smith');
    await user.click(within(form).getByRole('button', { name: 'Add another name' }));
    expect(within(form).getAllByRole('group', { name: /^Other name/ })).toHaveLength(2);
    await fillName(user, 'Other name 2', 'Dee', 'Jones');
    await user.click(within(form).getByRole('button', { name: 'Remove Dana Smith' }));
    expect(within(form).getAllByRole('group', { name: /^Other name/ })).toHaveLength(1);
    expect(within(group('Other name 1')).getByLabelText(/First name/)).toHaveValue('Dee');
    expect(within(form).getByRole('button', { name: 'Add another name' })).toHaveFocus();
    // A row without a name yet is still named by its place.
    await user.click(within(form).getByRole('button', { name: 'Add another name' }));
    expect(within(form).getByRole('button', { name: 'Remove Other name 2' })).toBeInTheDocument();
  });

  it('saves the explicit answer "no other names" as an empty list', async () => {
    const sent = putAliases(() => HttpResponse.json({ payload: { aliases: [], saved: true } }));
    const { user, form, onSaved } = await renderForm();
    await user.click(within(form).getByLabelText('I have not used any other names'));
    expect(within(form).queryByRole('group', { name: /^Other name/ })).not.toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Save and continue' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith('continue'));
    expect(sent).toEqual([{ aliases: [] }]);
    expect(notifications.getSnapshot().map((n) => n.text)).toContain('Other Names saved');
  });

  it('shows a saved empty list as "no other names", and unticking it gives a name to fill', async () => {
    const { user, form } = await renderForm({ aliases: [], saved: true });
    const none = within(form).getByLabelText('I have not used any other names');
    expect(none).toBeChecked();
    await user.click(none);
    expect(within(form).getAllByRole('group', { name: /^Other name/ })).toHaveLength(1);
  });

  it('sends the names with their ids and says so', async () => {
    const sent = putAliases((body) => HttpResponse.json({ payload: { aliases: body.aliases, saved: true } }));
    const initial = {
      saved: true,
      aliases: [
        {
          id: 'a1a1a1a1a1a1a1a1',
          type: 'previous',
          firstName: 'Dana',
          middleName: '',
          lastName: 'Smith',
          suffix: 'JR',
          from: '2001-01',
          to: '2010-06',
        },
      ],
    };
    const { user, form, onSaved } = await renderForm(initial);
    expect(within(group('Other name 1')).getByLabelText(/Suffix/)).toHaveValue('JR');
    await user.click(within(form).getByRole('button', { name: 'Save for later' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith('stay'));
    expect(sent).toEqual([{ aliases: initial.aliases }]);
  });

  it('a submit the rules refuse focuses a summary linking to each field', async () => {
    const { user, form } = await renderForm();
    await user.type(within(group('Other name 1')).getByLabelText(/First name/), 'Dana');
    await user.type(within(group('Other name 1')).getByLabelText(/Last name/), 'Demo');
    await user.click(within(form).getByRole('button', { name: 'Save and continue' }));
    const summary = await within(form).findByRole('alert');
    await waitFor(() => expect(summary).toHaveFocus());
    expect(
      within(summary)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Other name 1: Type of name', 'Other name 1: First name']);
    expect(within(form).getByText('This is your current name; list only other names.')).toBeInTheDocument();
  });

  it("puts the server's messages for aliases.{i}.{field} on those fields and keeps what was typed", async () => {
    putAliases(() =>
      HttpResponse.json(
        {
          errorMessage: 'validation error',
          errorFields: [{ field: 'aliases.1.lastName', message: 'You listed this name twice.' }],
        },
        { status: 422 },
      ),
    );
    const { user, form, onSaved } = await renderForm();
    await fillName(user, 'Other name 1', 'Dana', 'Smith');
    await user.click(within(form).getByRole('button', { name: 'Add another name' }));
    await fillName(user, 'Other name 2', 'Dee', 'Smith');
    await user.click(within(form).getByRole('button', { name: 'Save and continue' }));
    const last = within(group('Other name 2')).getByLabelText(/Last name/);
    await waitFor(() => expect(last).toHaveFocus());
    expect(last).toHaveAccessibleDescription('You listed this name twice.');
    expect(within(form).getByRole('alert')).toHaveTextContent('Error saving Other Names');
    expect(within(within(form).getByRole('alert')).getByRole('link')).toHaveTextContent('Other name 2: Last name');
    expect(within(group('Other name 1')).getByLabelText(/First name/)).toHaveValue('Dana');
    expect(onSaved).not.toHaveBeenCalled();
    expect(notifications.getSnapshot()).toEqual([]);
  });
});
