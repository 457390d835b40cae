import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { lookupQueries } from '@/lib/lookups';
import { notifications } from '@/lib/notifications';
import { queryClient } from '@/lib/query-client';
import { lookups } from '@/testing/fixtures';
import { logInAs } from '@/testing/render-app';
import { server } from '@/testing/server';
import type { AddressesAnswer } from '../api/history-api';
import { AddressesForm } from '../components/addresses-form';

const today = new Date(2026, 10, 22);
const empty: AddressesAnswer = {
  addresses: [],
  saved: false,
  requiredYears: 7,
  coverageStart: '2019-11',
  gaps: [],
  releaseFormRequired: false,
};
const states = [
  ...lookups.statesByCountryId,
  { id: 13, name: 'Idaho', code: 'US-ID', countryId: 1 },
  { id: 97, name: 'Armed Forces Americas', code: 'US-AA', countryId: 1 },
];

async function renderForm(initial: AddressesAnswer = empty) {
  logInAs(1);
  server.use(http.get('/api/v2/lookup/statesByCountryId', () => HttpResponse.json(states)));
  // The page shows the form once its lookups are there.
  await Promise.all([
    queryClient.fetchQuery(lookupQueries.countries()),
    queryClient.fetchQuery(lookupQueries.states()),
  ]);
  const onSaved = vi.fn();
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={queryClient}>
      <AddressesForm initial={initial} onSaved={onSaved} today={today} />
    </QueryClientProvider>,
  );
  const form = await screen.findByRole('form', { name: 'Address History' });
  return { user, form, onSaved };
}

const group = (name: string) => screen.getByRole('group', { name });
/** A month input takes its value whole, as the browser's picker gives it. */
const setMonth = (input: HTMLElement, value: string) => {
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
};

async function fillAddress(
  user: ReturnType<typeof userEvent.setup>,
  legend: string,
  a: { street: string; city?: string; state?: string; zip?: string; from: string; to?: string },
) {
  const g = within(group(legend));
  await user.type(g.getByLabelText(/Street address/), a.street);
  await user.type(g.getByLabelText(/^City/), a.city ?? 'Fresno');
  await user.selectOptions(g.getByLabelText(/^State/), a.state ?? 'California');
  await user.type(g.getByLabelText(/ZIP code/), a.zip ?? '93701');
  setMonth(g.getByLabelText(/^From/), a.from);
  if (a.to !== undefined) setMonth(g.getByLabelText(/^To/), a.to);
}

function validation(
  answer: Partial<{ errorFields: { field: string; message: string }[]; releaseFormRequired: boolean }>,
) {
  const asked: URLSearchParams[] = [];
  server.use(
    http.get('/api/v2/validation/address', ({ request }) => {
      asked.push(new URL(request.url).searchParams);
      const errorFields = answer.errorFields ?? [];
      return HttpResponse.json({
        payload: {
          valid: errorFields.length === 0,
          errorFields,
          releaseFormRequired: answer.releaseFormRequired ?? false,
          military: false,
        },
      });
    }),
  );
  return asked;
}

describe('the address history form', () => {
  it('says how far back it must go, starts with a current US address, and adds previous ones', async () => {
    validation({});
    const { user, form } = await renderForm();
    expect(
      within(form).getByText('We need every address where you lived in the last 7 years, since Nov 2019.'),
    ).toBeInTheDocument();
    const current = within(group('Current address'));
    expect(current.getByLabelText('I live here now')).toBeChecked();
    expect(current.getByLabelText(/^Country/)).toHaveValue('US');
    expect(current.getByLabelText(/^From/)).toHaveAttribute('type', 'month');
    expect(current.queryByLabelText(/^To/)).not.toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Add a previous address' }));
    expect(within(group('Previous address 1')).getByLabelText(/^To/)).toBeInTheDocument();
    await user.type(within(group('Previous address 1')).getByLabelText(/Street address/), '1 Oak Ave');
    await user.click(within(form).getByRole('button', { name: 'Remove 1 Oak Ave' }));
    expect(within(form).queryByRole('group', { name: 'Previous address 1' })).not.toBeInTheDocument();
  });

  it('abroad, the state is free text and the code a postal code', async () => {
    const { user } = await renderForm();
    const current = within(group('Current address'));
    await user.selectOptions(current.getByLabelText(/^Country/), 'Canada');
    expect(current.getByLabelText('State / province / region').tagName).toBe('INPUT');
    expect(current.getByLabelText('Postal code')).toBeInTheDocument();
  });

  it('works out gaps and overlaps while the applicant types, with the server messages', async () => {
    validation({});
    const { user, form } = await renderForm();
    const status = () => within(form).getAllByRole('status')[0];
    await fillAddress(user, 'Current address', { street: '9 Elm St', from: '2021-09' });
    expect(status()).toHaveTextContent('Your addresses must go back to Nov 2019 (7 years).');
    await user.click(within(form).getByRole('button', { name: 'Add a previous address' }));
    await fillAddress(user, 'Previous address 1', { street: '1 Oak Ave', from: '2018-01', to: '2021-06' });
    expect(status()).toHaveTextContent(
      'No address for Jul 2021 to Aug 2021. Add where you lived then or change these dates.',
    );
    // The message sits on the from of the address after the gap too.
    await waitFor(() =>
      expect(within(group('Current address')).getByLabelText(/^From/)).toHaveAccessibleDescription(
        expect.stringContaining('No address for Jul 2021 to Aug 2021.'),
      ),
    );
    setMonth(within(group('Current address')).getByLabelText(/^From/), '2021-03');
    expect(status()).toHaveTextContent('This period overlaps your address at 1 Oak Ave.');
    setMonth(within(group('Current address')).getByLabelText(/^From/), '2021-06');
    expect(status()).toHaveTextContent('Your addresses cover every month since Nov 2019.');
    await waitFor(() =>
      expect(within(group('Current address')).getByLabelText(/^From/)).not.toHaveAttribute('aria-invalid'),
    );
  });

  it('checks an address when the applicant leaves its ZIP code and shows what is wrong next to the fields', async () => {
    const asked = validation({
      errorFields: [
        { field: 'zip', message: 'ZIP code 99999 is not in California.' },
        { field: 'city', message: 'City is required.' },
      ],
    });
    const { user } = await renderForm();
    const current = within(group('Current address'));
    await user.type(current.getByLabelText(/Street address/), '9 Elm St');
    await user.selectOptions(current.getByLabelText(/^State/), 'California');
    await user.type(current.getByLabelText(/ZIP code/), '99999');
    await user.tab();
    await waitFor(() =>
      expect(current.getByLabelText(/ZIP code/)).toHaveAccessibleDescription('ZIP code 99999 is not in California.'),
    );
    expect(current.getByLabelText(/^City/)).toHaveAccessibleDescription('City is required.');
    expect(Object.fromEntries(asked[0])).toEqual({ street: '9 Elm St', city: '', state: 'US-CA', zip: '99999' });
  });

  it("keeps the address service's message when a row is added, and drops it once the address changes", async () => {
    validation({ errorFields: [{ field: 'zip', message: 'ZIP code 90210 is not in Texas.' }] });
    const { user } = await renderForm();
    const current = within(group('Current address'));
    await fillAddress(user, 'Current address', { street: '12 Main St', city: 'Austin', zip: '90210', from: '2022-05' });
    await user.click(current.getByLabelText(/^From/));
    await waitFor(() =>
      expect(current.getByLabelText(/ZIP code/)).toHaveAccessibleDescription('ZIP code 90210 is not in Texas.'),
    );
    // Adding a row revalidates the list with the form's rules, which used to wipe the service's message.
    await user.click(screen.getByRole('button', { name: 'Add a previous address' }));
    await screen.findByRole('group', { name: 'Previous address 1' });
    expect(current.getByLabelText(/ZIP code/)).toHaveAccessibleDescription('ZIP code 90210 is not in Texas.');
    await user.clear(current.getByLabelText(/ZIP code/));
    await user.type(current.getByLabelText(/ZIP code/), '73301');
    validation({});
    await user.click(screen.getByRole('button', { name: 'Add a previous address' }));
    await screen.findByRole('group', { name: 'Previous address 2' });
    expect(screen.queryByText('ZIP code 90210 is not in Texas.')).toBeNull();
  });

  it('abroad, the international check is asked and its names map to the fields', async () => {
    const asked: URLSearchParams[] = [];
    server.use(
      http.get('/api/v2/validation/internationaladdress', ({ request }) => {
        asked.push(new URL(request.url).searchParams);
        return HttpResponse.json({
          payload: {
            valid: false,
            errorFields: [{ field: 'postal_code', message: 'Postal code is not valid for Canada.' }],
            releaseFormRequired: false,
            military: false,
          },
        });
      }),
    );
    const { user } = await renderForm();
    const current = within(group('Current address'));
    await user.selectOptions(current.getByLabelText(/^Country/), 'Canada');
    await user.type(current.getByLabelText(/Street address/), '1 Rue Sainte');
    await user.type(current.getByLabelText(/^City/), 'Montreal');
    await user.type(current.getByLabelText('State / province / region'), 'QC');
    await user.type(current.getByLabelText('Postal code'), 'XXX');
    await user.tab();
    await waitFor(() =>
      expect(current.getByLabelText('Postal code')).toHaveAccessibleDescription('Postal code is not valid for Canada.'),
    );
    expect(Object.fromEntries(asked[0])).toEqual({
      country: 'CA',
      street: '1 Rue Sainte',
      locality: 'Montreal',
      administrative_area: 'QC',
      postal_code: 'XXX',
    });
  });

  it('an Idaho address says a release form is needed', async () => {
    validation({ releaseFormRequired: true });
    const { user } = await renderForm();
    const current = within(group('Current address'));
    expect(current.queryByText(/Idaho release form/)).not.toBeInTheDocument();
    await user.selectOptions(current.getByLabelText(/^State/), 'Idaho');
    expect(current.getByRole('status')).toHaveTextContent(
      'This address is in Idaho: your employer needs a signed Idaho release form, which we will ask you for.',
    );
  });

  it('saves, says so, and hands the intent over', async () => {
    validation({});
    const sent: unknown[] = [];
    server.use(
      http.put('/api/v2/user/subject/address', async ({ request }) => {
        const body = (await request.json()) as { addresses: unknown[] };
        sent.push(body);
        return HttpResponse.json({ payload: { ...empty, addresses: body.addresses, saved: true } });
      }),
    );
    const { user, form, onSaved } = await renderForm();
    await fillAddress(user, 'Current address', { street: '9 Elm St', from: '2015-04' });
    await user.click(within(form).getByRole('button', { name: 'Save and continue' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith('continue'));
    expect(sent).toEqual([
      {
        addresses: [
          {
            country: 'US',
            street1: '9 Elm St',
            street2: '',
            city: 'Fresno',
            state: 'US-CA',
            zip: '93701',
            from: '2015-04',
            to: '',
            current: true,
          },
        ],
      },
    ]);
    expect(notifications.getSnapshot().map((n) => n.text)).toContain('Addresses saved');
  });

  it("puts the server's messages for addresses.{i}.{field} on the fields and loses nothing typed", async () => {
    validation({});
    server.use(
      http.put('/api/v2/user/subject/address', () =>
        HttpResponse.json(
          {
            errorMessage: 'validation error',
            errorFields: [{ field: 'addresses.0.zip', message: 'ZIP code 93701 is not in California.' }],
          },
          { status: 422 },
        ),
      ),
    );
    const { user, form, onSaved } = await renderForm();
    await fillAddress(user, 'Current address', { street: '9 Elm St', from: '2015-04' });
    await user.click(within(form).getByRole('button', { name: 'Save and continue' }));
    const zip = within(group('Current address')).getByLabelText(/ZIP code/);
    await waitFor(() => expect(zip).toHaveFocus());
    expect(zip).toHaveAccessibleDescription('ZIP code 93701 is not in California.');
    expect(within(form).getByRole('alert')).toHaveTextContent('Error saving Addresses');
    expect(within(group('Current address')).getByLabelText(/Street address/)).toHaveValue('9 Elm St');
    expect(onSaved).not.toHaveBeenCalled();
  });
});
