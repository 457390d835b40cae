import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { notifications } from '@/lib/notifications';
import { createQueryClient, queryClient } from '@/lib/query-client';
import { userPayload } from '@/testing/fixtures';
import { logInAs } from '@/testing/render-app';
import { fakeDrafts, server } from '@/testing/server';
import { PersonalForm } from '../components/personal-form';
import { cachedCurrentUser } from '@/lib/current-user';
import { dateField, typeDate } from '@/testing/dates';

/** Renders the form and waits for it: it shows once its lookups are there. */
async function renderForm(onSaved = vi.fn()) {
  const user = userEvent.setup();
  const view = render(
    <QueryClientProvider client={queryClient}>
      <PersonalForm onSaved={onSaved} submitLabel="Save and finish" />
    </QueryClientProvider>,
  );
  await screen.findByRole('form', { name: 'Personal Information' });
  return { ...view, user, onSaved, form: () => screen.getByRole('form', { name: 'Personal Information' }) };
}

async function fillValid(user: ReturnType<typeof userEvent.setup>) {
  const form = screen.getByRole('form', { name: 'Personal Information' });
  await user.click(within(form).getByLabelText('No middle name'));
  await user.type(within(form).getByLabelText('Social Security number'), '123-45-6789');
  await user.type(within(form).getByLabelText('Confirm Social Security number'), '123456789');
  await typeDate(user, dateField(within(form), 'Date of birth'), '1990-04-12');
  await typeDate(user, dateField(within(form), 'Confirm date of birth'), '1990-04-12');
  await user.type(within(form).getByLabelText('Daytime phone number'), '202 456 1111');
  await user.type(within(form).getByLabelText("Driver's license number"), 'D7654321');
  await user.selectOptions(within(form).getByLabelText('State that issued it'), 'California');
}

describe('the personal information form', () => {
  it('starts with the invited names and e-mail, and shows a field error only after the field was touched', async () => {
    logInAs(0);
    const { user, form } = await renderForm();
    expect(within(form()).getByLabelText('First name')).toHaveValue('Dana');
    expect(within(form()).getByLabelText('E-mail address')).toHaveValue('demo.applicant@example.com');
    expect(within(form()).queryByText('Daytime phone number is required.')).not.toBeInTheDocument();
    await user.click(within(form()).getByLabelText('Daytime phone number'));
    await user.tab();
    expect(await within(form()).findByText('Daytime phone number is required.')).toBeInTheDocument();
    expect(within(form()).getByLabelText('Daytime phone number')).toHaveAttribute('aria-invalid', 'true');
  });

  it('a submit the rules refuse focuses a summary that links to each field in error, in page order', async () => {
    logInAs(0);
    const { user, form } = await renderForm();
    await user.click(within(form()).getByRole('button', { name: 'Save and finish' }));
    const summary = await within(form()).findByRole('alert');
    await waitFor(() => expect(summary).toHaveFocus());
    const links = within(summary).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual([
      'Middle name',
      'Date of birth',
      'Daytime phone number',
      "Driver's license number",
      'State that issued it',
    ]);
    await user.click(within(summary).getByRole('link', { name: 'Daytime phone number' }));
    expect(within(form()).getByLabelText('Daytime phone number')).toHaveFocus();
    // A field leaves the summary once its rule holds.
    await user.type(within(form()).getByLabelText('Daytime phone number'), '202 456 1111');
    await waitFor(() =>
      expect(within(form()).queryByRole('link', { name: 'Daytime phone number' })).not.toBeInTheDocument(),
    );
  });

  it('keeps typed input, the SSN included, in a server draft that a new visit restores, and nothing in the browser', async () => {
    logInAs(0);
    const { drafts } = fakeDrafts();
    const first = await renderForm();
    await first.user.type(within(first.form()).getByLabelText('ZIP code for a drug test (optional)'), '60601');
    await first.user.type(within(first.form()).getByLabelText('Social Security number'), '123456789');
    await within(first.form()).findByText(/^Draft saved at/);
    expect(drafts.get('personal')).toEqual({ drugZip: '60601', ssn: '123456789' });
    expect(JSON.stringify(sessionStorage)).not.toContain('60601');
    first.unmount();
    queryClient.clear();

    const again = await renderForm();
    await waitFor(() =>
      expect(within(again.form()).getByLabelText('ZIP code for a drug test (optional)')).toHaveValue('60601'),
    );
    expect(within(again.form()).getByLabelText('Social Security number')).toHaveValue('123456789');
    expect(within(again.form()).getByText(/^Draft saved at/)).toBeInTheDocument();
  });

  it('saves with PUT /api/v2/user, says so, clears the draft and hands the new user over', async () => {
    logInAs(0);
    let sent: Record<string, unknown> | undefined;
    const saved = { subject: { personalInformation: { firstName: 'Dana', lastName: 'Demo', ssnLastFour: '6789' } } };
    server.use(
      http.put('/api/v2/user', async ({ request }) => {
        sent = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json(saved);
      }),
    );
    const before = cachedCurrentUser();
    const { user, form, onSaved } = await renderForm();
    await fillValid(user);
    await user.selectOptions(within(form()).getByLabelText('Suffix (optional)'), 'Jr.');
    await user.selectOptions(within(form()).getByLabelText('Suffix (optional)'), 'None');
    await user.click(within(form()).getByRole('button', { name: 'Save and finish' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(sent).toMatchObject({
      firstName: 'Dana',
      lastName: 'Demo',
      noMiddleName: true,
      ssn: '123456789',
      confirmSSN: '123456789',
      nameSuffix: '',
      dob: '1990-04-12',
      daytimeDialCode: '1',
      daytimePhoneNumber: '202 456 1111',
      driversLicenseState: 'US-CA',
      noSSN: false,
    });
    expect(notifications.getSnapshot().map((n) => n.text)).toContain('Personal Information saved');
    // The server deleted the draft with the save: the form shows no draft any more.
    expect(within(form()).queryByText(/^Draft saved at/)).not.toBeInTheDocument();
    // The answer is only the saved part of the user: it goes into the cached user, the rest stays.
    expect(cachedCurrentUser()?.subject.personalInformation).toEqual(saved.subject.personalInformation);
    expect(cachedCurrentUser()).toEqual({
      ...before,
      subject: { ...before?.subject, personalInformation: saved.subject.personalInformation },
    });
  });

  it('puts each server message once, next to its field, focuses the first in page order, and links them from a summary', async () => {
    logInAs(0);
    server.use(
      http.put('/api/v2/user', () =>
        HttpResponse.json(
          {
            errorMessage: 'validation error',
            // The server's order is not the page's: the e-mail comes last on the page.
            errorFields: [
              { field: 'primaryNotificationMethod.email', message: 'This e-mail address cannot receive mail.' },
              { field: 'daytimePhoneNumber', message: 'Enter a valid phone number for dial code +1.' },
            ],
          },
          { status: 422 },
        ),
      ),
    );
    const onFailed = vi.fn();
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={queryClient}>
        <PersonalForm onFailed={onFailed} submitLabel="Save and finish" />
      </QueryClientProvider>,
    );
    const form = await screen.findByRole('form', { name: 'Personal Information' });
    await fillValid(user);
    await user.click(within(form).getByRole('button', { name: 'Save and finish' }));

    const phone = within(form).getByLabelText('Daytime phone number');
    await waitFor(() => expect(phone).toHaveFocus());
    expect(phone).toHaveAttribute('aria-invalid', 'true');
    expect(phone).toHaveAccessibleDescription('Enter a valid phone number for dial code +1.');
    expect(screen.getAllByText('Enter a valid phone number for dial code +1.')).toHaveLength(1);
    expect(screen.getAllByText('This e-mail address cannot receive mail.')).toHaveLength(1);
    expect(notifications.getSnapshot()).toEqual([]);
    expect(onFailed).toHaveBeenCalledWith('Some answers need your attention.');

    const summary = within(form).getByRole('alert');
    expect(
      within(summary)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Daytime phone number', 'E-mail address']);
    await user.click(within(summary).getByRole('link', { name: 'E-mail address' }));
    expect(within(form).getByLabelText('E-mail address')).toHaveFocus();

    // Everything typed stays; a corrected field leaves the summary.
    expect(within(form).getByLabelText('Social Security number')).toHaveValue('123-45-6789');
    await user.clear(phone);
    await user.type(phone, '202 456 1112');
    await waitFor(() =>
      expect(
        within(summary)
          .getAllByRole('link')
          .map((a) => a.textContent),
      ).toEqual(['E-mail address']),
    );
  });

  it('a message for no field on the form shows once above it, and takes focus', async () => {
    logInAs(0);
    server.use(
      http.put('/api/v2/user', () =>
        HttpResponse.json(
          { errorMessage: 'validation error', errorFields: [{ field: 'subject', message: 'Your names are locked.' }] },
          { status: 422 },
        ),
      ),
    );
    const { user, form } = await renderForm();
    await fillValid(user);
    await user.click(within(form()).getByRole('button', { name: 'Save and finish' }));
    const alert = await within(form()).findByRole('alert');
    expect(alert).toHaveTextContent('Error saving Personal Information: Your names are locked.');
    await waitFor(() => expect(alert).toHaveFocus());
    expect(screen.getAllByText(/Your names are locked/)).toHaveLength(1);
    expect(notifications.getSnapshot()).toEqual([]);
  });

  it('shows saved phones formatted in their own fields and saves the evening phone empty when it was the daytime fallback', async () => {
    logInAs(1, {
      payload: userPayload(1, {
        personalInformation: {
          firstName: 'Dana',
          lastName: 'Demo',
          noMiddleFlag: true,
          dob: '1990-04-12',
          ssnLastFour: '6789',
          noDriversLicenseFlag: true,
          daytimeDialCode: '1',
          daytimePhoneNumber: '2024561111',
          eveningDialCode: '1',
          eveningPhoneNumber: '2024561111',
          primaryNotificationMethod: { type: 'email', email: 'dana@example.com', text: '' },
        },
      }),
    });
    let sent: Record<string, unknown> | undefined;
    server.use(
      http.put('/api/v2/user', async ({ request }) => {
        sent = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json({ subject: { personalInformation: userPayload(1).subject.personalInformation } });
      }),
    );
    const { user, form } = await renderForm();
    expect(within(form()).getByLabelText('Daytime phone number')).toHaveValue('(202) 456-1111');
    expect(within(form()).getByLabelText('Evening phone number (optional)')).toHaveValue('');
    await user.click(within(form()).getByRole('button', { name: 'Save and finish' }));
    await waitFor(() => expect(sent).toBeDefined());
    expect(sent).toMatchObject({ daytimePhoneNumber: '(202) 456-1111', eveningPhoneNumber: '' });
  });

  it('an SSN that does not end in the digits signed with raises ssn-mismatch', async () => {
    logInAs(0);
    server.use(
      http.put('/api/v2/user', () =>
        HttpResponse.json(
          {
            errorMessage: 'validation error',
            errorFields: [{ field: 'ssn', message: 'This SSN does not end in 1111.', code: 'ssn-mismatch' }],
          },
          { status: 422 },
        ),
      ),
    );
    const mismatch = vi.fn();
    window.addEventListener('ssn-mismatch', mismatch);
    const { user, form } = await renderForm();
    await fillValid(user);
    await user.click(within(form()).getByRole('button', { name: 'Save and finish' }));
    expect(await within(form()).findByText('This SSN does not end in 1111.')).toBeInTheDocument();
    expect(mismatch).toHaveBeenCalledTimes(1);
    window.removeEventListener('ssn-mismatch', mismatch);
  });

  it('shows the saved choices of its lists, which arrive after the form is asked for', async () => {
    logInAs(1, {
      payload: userPayload(1, {
        personalInformation: {
          firstName: 'Dana',
          lastName: 'Demo',
          gender: 'M',
          suffix: 'SR',
          driversLicenseState: 'US-TX',
          driversLicense: 'T1',
        },
      }),
    });
    const { form } = await renderForm();
    expect(within(form()).getByLabelText('Gender (optional)')).toHaveDisplayValue('Male');
    expect(within(form()).getByLabelText('Suffix (optional)')).toHaveDisplayValue('Sr.');
    expect(within(form()).getByLabelText('State that issued it')).toHaveDisplayValue('Texas');
  });

  it('says so when a list cannot be fetched, and tries again', async () => {
    logInAs(0);
    let fail = true;
    server.use(
      http.get('/api/v2/lookup/genders', () =>
        fail
          ? HttpResponse.json({ errorMessage: 'Service unavailable' }, { status: 503 })
          : HttpResponse.json([{ id: 1, name: 'Female', code: 'F' }]),
      ),
    );
    const user = userEvent.setup();
    const client = createQueryClient();
    // The app asks a failing server twice more; the test need not wait for that.
    client.setDefaultOptions({ queries: { retry: false } });
    // The user and settings of logInAs, as the guards leave them in the app's cache.
    for (const query of queryClient.getQueryCache().getAll()) client.setQueryData(query.queryKey, query.state.data);
    render(
      <QueryClientProvider client={client}>
        <PersonalForm />
      </QueryClientProvider>,
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error fetching lookup: Service unavailable');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('form', { name: 'Personal Information' })).toBeInTheDocument();
  });

  const unavailable = 'The service is briefly unavailable. Nothing you entered is lost: try again in a moment.';
  const storageFull =
    'The service cannot save anything right now because its storage is full. Nothing you entered is lost: try again later, and contact support if this keeps happening.';
  it.each([
    [
      '503 (the database away)',
      () => HttpResponse.json({ errorMessage: unavailable }, { status: 503, headers: { 'Retry-After': '2' } }),
      unavailable,
    ],
    ['507 (storage full)', () => HttpResponse.json({ errorMessage: storageFull }, { status: 507 }), storageFull],
    [
      'proxy’s 502 page (the server restarting)',
      () => new HttpResponse('<html>Bad Gateway</html>', { status: 502 }),
      unavailable,
    ],
  ])(
    'a %s shows its message in the form, keeps what was typed, and pressing Save again retries',
    async (_, failure, message) => {
      logInAs(0);
      let calls = 0;
      const saved = { subject: { personalInformation: { firstName: 'Dana', lastName: 'Demo', ssnLastFour: '6789' } } };
      server.use(
        http.put('/api/v2/user', () => {
          calls++;
          return calls === 1 ? failure() : HttpResponse.json(saved);
        }),
      );
      const { user, form, onSaved } = await renderForm();
      await fillValid(user);
      const typed = {
        ssn: (within(form()).getByLabelText('Social Security number') as HTMLInputElement).value,
        phone: (within(form()).getByLabelText('Daytime phone number') as HTMLInputElement).value,
      };
      await user.click(within(form()).getByRole('button', { name: 'Save and finish' }));
      const summary = await within(form()).findByRole('alert');
      expect(summary).toHaveTextContent(message);
      expect(onSaved).not.toHaveBeenCalled();
      expect(within(form()).getByLabelText('Social Security number')).toHaveValue(typed.ssn);
      expect(within(form()).getByLabelText('Daytime phone number')).toHaveValue(typed.phone);
      expect(typed.ssn).not.toBe('');

      await user.click(within(form()).getByRole('button', { name: 'Save and finish' }));
      await waitFor(() => expect(onSaved).toHaveBeenCalled());
      expect(calls).toBe(2);
      expect(cachedCurrentUser()?.subject.personalInformation).toEqual(saved.subject.personalInformation);
    },
  );

  it('masks the SSN until shown, and says which SSN is on file in the field’s description', async () => {
    logInAs(0, {
      payload: userPayload(0, { personalInformation: { firstName: 'Dana', lastName: 'Demo', ssnLastFour: '6789' } }),
    });
    const { user, form } = await renderForm();
    const ssn = within(form()).getByLabelText('Social Security number');
    expect(ssn).toHaveAttribute('type', 'password');
    expect(ssn).toHaveAccessibleDescription(
      'SSN on file ending in 6789. Leave the SSN fields empty to keep it, or type a new one.',
    );
    // Each SSN field has its own toggle, named for it, showing only that field.
    const confirm = within(form()).getByLabelText('Confirm Social Security number');
    await user.click(within(form()).getByRole('button', { name: 'Show Social Security number' }));
    expect(ssn).toHaveAttribute('type', 'text');
    expect(confirm).toHaveAttribute('type', 'password');
    await user.click(within(form()).getByRole('button', { name: 'Show Social Security number confirmation' }));
    expect(confirm).toHaveAttribute('type', 'text');
    await user.click(within(form()).getByLabelText('No SSN: I do not have a US Social Security number'));
    expect(ssn).toBeDisabled();
    expect(within(form()).queryByText(/SSN on file ending in/)).not.toBeInTheDocument();
  });

  it('asks how to reach the applicant with radio buttons, showing the fields the choice needs', async () => {
    logInAs(0);
    const { user, form } = await renderForm();
    const reach = within(form()).getByRole('radiogroup', { name: 'Notify me by' });
    expect(within(reach).getByRole('radio', { name: 'E-mail' })).toBeChecked();
    expect(within(form()).queryByLabelText('Mobile number for text messages')).not.toBeInTheDocument();
    await user.click(within(reach).getByRole('radio', { name: 'Text message' }));
    expect(within(form()).getByLabelText('Mobile number for text messages')).toBeInTheDocument();
    expect(within(form()).queryByLabelText('E-mail address')).not.toBeInTheDocument();
    await user.click(within(reach).getByRole('radio', { name: 'E-mail and text message' }));
    expect(within(form()).getByLabelText('E-mail address')).toBeInTheDocument();
    expect(within(form()).getByLabelText('Mobile number for text messages')).toBeInTheDocument();
  });

  it('puts a dial code error next to the dial code', async () => {
    logInAs(0);
    const { user, form } = await renderForm();
    const dial = within(form()).getByLabelText('Daytime dial code');
    await user.clear(dial);
    await user.type(dial, 'abc');
    await user.type(within(form()).getByLabelText('Daytime phone number'), '202 456 1111');
    await user.tab();
    await user.click(dial);
    await user.tab();
    expect(await within(form()).findByText('Choose a dial code, like +1.')).toBeInTheDocument();
    expect(dial).toHaveAttribute('aria-invalid', 'true');
  });
});
