import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { notifications } from '@/lib/notifications';
import { userPayload } from '@/testing/fixtures';
import { logInAs, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

const validation = (fields: { field: string; message: string }[]) =>
  HttpResponse.json({ errorMessage: 'validation error', errorFields: fields }, { status: 422 });

async function openAccount(payload = userPayload(1)) {
  logInAs(1, { payload });
  const view = renderApp('/account');
  await screen.findByRole('form', { name: 'Notification preferences' });
  return view;
}

describe('/account', () => {
  it('explains that the settings need a login when logged out', async () => {
    renderApp('/account');
    expect(await screen.findByText(/available once you log in/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in to your account' })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
  });

  it('saves the notification preferences and says so', async () => {
    let sent: unknown;
    server.use(
      http.put('/api/v2/user/subject/notification', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ payload: { primaryNotificationMethod: sent } });
      }),
    );
    const { user } = await openAccount();
    const form = screen.getByRole('form', { name: 'Notification preferences' });
    await user.click(within(form).getByRole('radio', { name: 'E-mail and text message' }));
    await user.type(within(form).getByLabelText(/Mobile number/), '(202) 555-0143');
    await user.click(within(form).getByRole('button', { name: 'Save notification preferences' }));
    expect(await screen.findByText('Notification preferences are saved')).toBeInTheDocument();
    expect(sent).toEqual({ type: 'both', email: 'demo.applicant@example.com', text: '2025550143' });
  });

  it("puts the server's 422 on the notification fields", async () => {
    server.use(
      http.put('/api/v2/user/subject/notification', () =>
        validation([{ field: 'email', message: 'This e-mail address cannot receive mail.' }]),
      ),
    );
    const { user } = await openAccount();
    const form = screen.getByRole('form', { name: 'Notification preferences' });
    await user.click(within(form).getByRole('button', { name: 'Save notification preferences' }));
    const email = within(form).getByLabelText(/E-mail address for notifications/);
    expect(await within(form).findAllByText('This e-mail address cannot receive mail.')).not.toHaveLength(0);
    expect(email).toHaveAccessibleDescription(expect.stringContaining('This e-mail address cannot receive mail.'));
    expect(email).toHaveFocus();
    // Said once, in the form's error summary above the link to the field, not again in a snackbar.
    expect(within(form).getByText('Error saving notification preferences')).toBeInTheDocument();
    expect(notifications.getSnapshot().some((n) => n.text === 'Error saving notification preferences')).toBe(false);
  });

  it('changes the password with the current one, and shows a wrong current password on its field', async () => {
    let sent: unknown;
    server.use(
      http.patch('/api/v2/user', async ({ request }) => {
        sent = await request.json();
        return validation([{ field: 'currentPassword', message: 'Your current password is not correct.' }]);
      }),
    );
    const { user } = await openAccount();
    const form = screen.getByRole('form', { name: 'Change password' });
    await user.type(within(form).getByLabelText(/^Current password/), 'old password here');
    await user.type(within(form).getByLabelText(/^New password/), 'violet harbor lantern 42');
    await user.type(within(form).getByLabelText(/^Confirm new password/), 'violet harbor lantern 42');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    const current = within(form).getByLabelText(/^Current password/);
    await expect.poll(() => current.getAttribute('aria-invalid')).toBe('true');
    expect(current).toHaveAccessibleDescription(expect.stringContaining('Your current password is not correct.'));
    expect(sent).toEqual({ currentPassword: 'old password here', password: 'violet harbor lantern 42' });
  });

  it('refuses a new password the policy refuses before asking the server', async () => {
    const { user } = await openAccount();
    const form = screen.getByRole('form', { name: 'Change password' });
    await user.type(within(form).getByLabelText(/^Current password/), 'old password here');
    await user.type(within(form).getByLabelText(/^New password/), 'short');
    await user.type(within(form).getByLabelText(/^Confirm new password/), 'short');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await within(form).findAllByText('Password must be at least 15 characters long.')).not.toHaveLength(0);
  });

  it('asks for an e-mail change and then shows the pending address and that a link was sent', async () => {
    server.use(
      http.patch('/api/v2/user', () => HttpResponse.json(userPayload(1, { pendingEmail: 'dana.new@example.com' }))),
    );
    const { user } = await openAccount();
    const form = screen.getByRole('form', { name: 'Change e-mail address' });
    await user.type(within(form).getByLabelText(/^New e-mail address/), 'dana.new@example.com');
    await user.type(within(form).getByLabelText(/^Current password/), 'my password here');
    await user.click(within(form).getByRole('button', { name: 'Change e-mail address' }));
    expect(await within(form).findByText(/We sent a confirmation link to dana.new@example.com/)).toBeInTheDocument();
  });

  it("puts the server's 422 on the new e-mail field", async () => {
    server.use(
      http.patch('/api/v2/user', () => validation([{ field: 'email', message: 'This e-mail address is not valid.' }])),
    );
    const { user } = await openAccount();
    const form = screen.getByRole('form', { name: 'Change e-mail address' });
    await user.type(within(form).getByLabelText(/^New e-mail address/), 'dana@example.com');
    await user.type(within(form).getByLabelText(/^Current password/), 'my password here');
    await user.click(within(form).getByRole('button', { name: 'Change e-mail address' }));
    const email = within(form).getByLabelText(/^New e-mail address/);
    await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
    expect(email).toHaveAccessibleDescription(expect.stringContaining('This e-mail address is not valid.'));
  });
});
