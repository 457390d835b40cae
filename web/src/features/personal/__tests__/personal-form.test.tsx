import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { notifications } from '@/lib/notifications';
import { createQueryClient } from '@/lib/query-client';
import { session } from '@/lib/session';
import { userPayload } from '@/testing/fixtures';
import { logInAs } from '@/testing/render-app';
import { server } from '@/testing/server';
import { PersonalForm } from '../components/personal-form';

function renderForm(onSaved = vi.fn()) {
  const user = userEvent.setup();
  const view = render(
    <QueryClientProvider client={createQueryClient()}>
      <PersonalForm onSaved={onSaved} submitLabel="Save and finish" />
    </QueryClientProvider>,
  );
  return { ...view, user, onSaved, form: () => screen.getByRole('form', { name: 'Personal Information' }) };
}

async function fillValid(user: ReturnType<typeof userEvent.setup>) {
  const form = screen.getByRole('form', { name: 'Personal Information' });
  await user.click(within(form).getByLabelText('No middle name'));
  await user.type(within(form).getByLabelText('Social Security number'), '123-45-6789');
  await user.type(within(form).getByLabelText('Confirm Social Security number'), '123456789');
  await user.type(within(form).getByLabelText('Date of birth'), '1990-04-12');
  await user.type(within(form).getByLabelText('Confirm date of birth'), '1990-04-12');
  await user.type(within(form).getByLabelText('Daytime phone number'), '202 456 1111');
  await user.type(within(form).getByLabelText("Driver's license number"), 'D7654321');
  await user.selectOptions(within(form).getByLabelText('State that issued it'), 'California');
}

describe('the personal information form', () => {
  it('starts with the invited names and e-mail, and shows a field error only after the field was touched', async () => {
    logInAs(0);
    const { user, form } = renderForm();
    expect(within(form()).getByLabelText('First name')).toHaveValue('Dana');
    expect(within(form()).getByLabelText('E-mail address')).toHaveValue('demo.applicant@example.com');
    expect(within(form()).queryByText('Daytime phone number is required.')).not.toBeInTheDocument();
    await user.click(within(form()).getByLabelText('Daytime phone number'));
    await user.tab();
    expect(await within(form()).findByText('Daytime phone number is required.')).toBeInTheDocument();
    expect(within(form()).getByLabelText('Daytime phone number')).toHaveAttribute('aria-invalid', 'true');
  });

  it('keeps typed input in a draft that survives a reload, without the SSN', async () => {
    logInAs(0);
    const first = renderForm();
    await first.user.type(within(first.form()).getByLabelText('ZIP code for a drug test (optional)'), '60601');
    await first.user.type(within(first.form()).getByLabelText('Social Security number'), '123456789');
    first.unmount();
    expect(sessionStorage.getItem('portal-personal-draft')).toContain('60601');
    expect(sessionStorage.getItem('portal-personal-draft')).not.toContain('123456789');

    const again = renderForm();
    expect(within(again.form()).getByLabelText('ZIP code for a drug test (optional)')).toHaveValue('60601');
    expect(within(again.form()).getByLabelText('Social Security number')).toHaveValue('');
  });

  it('saves with PUT /api/v2/user, says so, clears the draft and hands the new user over', async () => {
    logInAs(0);
    let sent: Record<string, unknown> | undefined;
    const saved = userPayload(0, { personalInformation: { firstName: 'Dana', lastName: 'Demo', ssnLastFour: '6789' } });
    server.use(
      http.put('/api/v2/user', async ({ request }) => {
        sent = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json(saved);
      }),
    );
    const { user, form, onSaved } = renderForm();
    await fillValid(user);
    await user.click(within(form()).getByRole('button', { name: 'Save and finish' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(saved));
    expect(sent).toMatchObject({
      firstName: 'Dana', lastName: 'Demo', noMiddleName: true, ssn: '123456789', confirmSSN: '123456789', nameSuffix: '',
      dob: '1990-04-12', daytimeDialCode: '1', daytimePhoneNumber: '202 456 1111', driversLicenseState: 'US-CA', noSSN: false,
    });
    expect(notifications.getSnapshot().map((n) => n.text)).toContain('Personal Information saved');
    expect(sessionStorage.getItem('portal-personal-draft')).toBeNull();
    expect(session.get().authUser?.personalInformation).toMatchObject({ ssnLastFour: '6789' });
  });

  it('puts the server’s field messages next to their fields and keeps everything typed', async () => {
    logInAs(0);
    server.use(
      http.put('/api/v2/user', () =>
        HttpResponse.json(
          {
            errorMessage: 'validation error',
            errorFields: [
              { field: 'daytimePhoneNumber', message: 'Enter a valid phone number for dial code +1.' },
              { field: 'primaryNotificationMethod.email', message: 'This e-mail address cannot receive mail.' },
            ],
          },
          { status: 422 },
        ),
      ),
    );
    const { user, form, onSaved } = renderForm();
    await fillValid(user);
    await user.click(within(form()).getByRole('button', { name: 'Save and finish' }));
    expect(await within(form()).findByText('Enter a valid phone number for dial code +1.')).toBeInTheDocument();
    expect(within(form()).getByText('This e-mail address cannot receive mail.')).toBeInTheDocument();
    expect(notifications.getSnapshot().map((n) => n.text)).toContain(
      'Error saving Personal Information: Enter a valid phone number for dial code +1. This e-mail address cannot receive mail.',
    );
    expect(within(form()).getByLabelText('Social Security number')).toHaveValue('123-45-6789');
    expect(within(form()).getByLabelText('Daytime phone number')).toHaveValue('202 456 1111');
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('an SSN that does not end in the digits signed with raises ssn-mismatch', async () => {
    logInAs(0);
    server.use(
      http.put('/api/v2/user', () =>
        HttpResponse.json(
          { errorMessage: 'validation error', errorFields: [{ field: 'ssn', message: 'This SSN does not end in 1111.', code: 'ssn-mismatch' }] },
          { status: 422 },
        ),
      ),
    );
    const mismatch = vi.fn();
    window.addEventListener('ssn-mismatch', mismatch);
    const { user, form } = renderForm();
    await fillValid(user);
    await user.click(within(form()).getByRole('button', { name: 'Save and finish' }));
    expect(await within(form()).findByText('This SSN does not end in 1111.')).toBeInTheDocument();
    expect(mismatch).toHaveBeenCalledTimes(1);
    window.removeEventListener('ssn-mismatch', mismatch);
  });
});
