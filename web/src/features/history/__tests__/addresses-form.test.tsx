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
/** The month and year boxes of a period's end ("From", "To") in a scope. */
const monthOf = (scope: ReturnType<typeof within>, name: RegExp) => scope.getByRole('group', { name });
/** Types "2021-09" into a period's Month and Year boxes, then leaves them. */
const setMonth = (field: HTMLElement, value: string) => {
  const [year, month] = value.split('-');
  fireEvent.change(within(field).getByLabelText('Month'), { target: { value: month } });
  fireEvent.change(within(field).getByLabelText('Year'), { target: { value: year } });
  fireEvent.focusOut(within(field).getByLabelText('Year'));
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
  setMonth(monthOf(g, /^From/), a.from);
  if (a.to !== undefined) setMonth(monthOf(g, /^To/), a.to);
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
      within(form).getByText('We need every address where you lived in the last 7 years, since November 2019.'),
    ).toBeInTheDocument();
    const current = within(group('Current address'));
    expect(current.getByLabelText('I live here now')).toBeChecked();
    expect(current.getByLabelText(/^Country/)).toHaveValue('US');
    // Month and year boxes, GOV.UK's date input for a history period.
    const from = monthOf(current, /^From/);
    expect(within(from).getByLabelText('Month')).toHaveAttribute('inputmode', 'numeric');
    expect(within(from).getByLabelText('Year')).toHaveAttribute('inputmode', 'numeric');
    expect(from).toHaveAccessibleDescription('For example, 3 2019');
    expect(current.queryByRole('group', { name: /^To/ })).not.toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Add a previous address' }));
    expect(monthOf(within(group('Previous address 1')), /^To/)).toBeInTheDocument();
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

  it('works out the gaps while the applicant types, and adds an address for the months of one', async () => {
    validation({});
    const { user, form } = await renderForm();
    // The coverage's status, not the draft's (components/draft-status).
    const status = () =>
      within(form)
        .getAllByRole('status')
        .filter((s) => !s.hasAttribute('data-draft-status'))[0];
    await fillAddress(user, 'Current address', { street: '9 Elm St', from: '2021-09' });
    expect(status()).toHaveTextContent('Add the address where you lived from November 2019 to August 2021.');
    await user.click(within(form).getByRole('button', { name: 'Add a previous address' }));
    await fillAddress(user, 'Previous address 1', { street: '1 Oak Ave', from: '2018-01', to: '2021-06' });
    expect(status()).toHaveTextContent('Add the address where you lived from July 2021 to August 2021.');
    // The gap is the list's: the current address's From is not in error for it.
    expect(monthOf(within(group('Current address')), /^From/)).not.toHaveAccessibleDescription(/July 2021/);
    // The coverage bar says it in words too, and its gap's button is named by the gap's months.
    expect(within(form).getByText('Gap: Jul 2021 to Aug 2021 (2 months)')).toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Add an address for Jul 2021 to Aug 2021' }));
    const added = within(group('Previous address 2'));
    await waitFor(() => expect(added.getByLabelText(/Street address/)).toHaveFocus());
    expect(within(monthOf(added, /^From/)).getByLabelText('Month')).toHaveValue('07');
    expect(within(monthOf(added, /^From/)).getByLabelText('Year')).toHaveValue('2021');
    expect(within(monthOf(added, /^To/)).getByLabelText('Month')).toHaveValue('08');
    expect(within(monthOf(added, /^To/)).getByLabelText('Year')).toHaveValue('2021');
    expect(status()).toHaveTextContent('Your addresses cover every month since November 2019.');
    expect(within(form).queryByText(/^Gap:/)).not.toBeInTheDocument();
    // An overlap stays on the later address's From.
    setMonth(monthOf(within(group('Current address')), /^From/), '2021-03');
    await waitFor(() =>
      expect(monthOf(within(group('Current address')), /^From/)).toHaveAccessibleDescription(
        expect.stringContaining('This period overlaps your address at 1 Oak Ave.'),
      ),
    );
  });

  it('"Save and continue" with a gap is refused: the summary links to the button that adds its address', async () => {
    validation({});
    const put = vi.fn();
    server.use(http.put('/api/v2/user/subject/address', put));
    const { user, form } = await renderForm();
    await fillAddress(user, 'Current address', { street: '9 Elm St', from: '2021-09' });
    await user.click(within(form).getByRole('button', { name: 'Save and continue' }));
    const summary = await within(form).findByRole('alert');
    expect(summary).toHaveTextContent('There is a problem');
    await user.click(
      within(summary).getByRole('link', { name: 'Add the address where you lived from November 2019 to August 2021.' }),
    );
    expect(within(form).getByRole('button', { name: /^Add an address for / })).toHaveFocus();
    expect(put).not.toHaveBeenCalled();
  });

  it('"Save for later" saves a history that does not cover the years yet, as a draft', async () => {
    validation({});
    const sent: { draft?: boolean }[] = [];
    server.use(
      http.put('/api/v2/user/subject/address', async ({ request }) => {
        const body = (await request.json()) as { addresses: unknown[]; draft: boolean };
        sent.push(body);
        return HttpResponse.json({ payload: { ...empty, addresses: body.addresses, saved: true } });
      }),
    );
    const { user, form, onSaved } = await renderForm();
    await fillAddress(user, 'Current address', { street: '9 Elm St', from: '2021-09' });
    await user.click(within(form).getByRole('button', { name: 'Save for later' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith('stay'));
    expect(sent).toMatchObject([{ draft: true }]);
  });

  it('the summary counts and links every field in error; a block added afterwards starts quiet', async () => {
    const { user, form } = await renderForm();
    const current = within(group('Current address'));
    setMonth(monthOf(current, /^From/), '2021-');
    await user.click(within(form).getByRole('button', { name: 'Save for later' }));
    const summary = await within(form).findByRole('alert');
    expect(summary).toHaveTextContent('There are 5 problems');
    const links = within(summary).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual([
      'Current address: Street address',
      'Current address: City',
      'Current address: State',
      'Current address: ZIP code',
      'Current address: From',
    ]);
    // The date's link goes to the box at fault, and only that box is marked.
    await user.click(links[4]);
    const from = monthOf(current, /^From/);
    expect(within(from).getByLabelText('Month')).toHaveFocus();
    expect(within(from).getByLabelText('Month')).toHaveAttribute('aria-invalid', 'true');
    expect(within(from).getByLabelText('Year')).not.toHaveAttribute('aria-invalid');
    expect(from).toHaveAccessibleDescription(expect.stringContaining('From must include a month.'));
    await user.click(within(form).getByRole('button', { name: 'Add a previous address' }));
    const added = group('Previous address 1');
    expect(within(added).getByLabelText(/Street address/)).not.toHaveAttribute('aria-invalid');
    expect(within(added).queryByText('Street is required.')).toBeNull();
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
    await user.click(within(monthOf(current, /^From/)).getByLabelText('Month'));
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
        draft: false,
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
