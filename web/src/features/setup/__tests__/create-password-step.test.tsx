import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { notifications } from '@/lib/notifications';
import { passwordMessages } from '@/lib/password-policy';
import { userPayload } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

async function openCreatePassword() {
  server.use(
    http.get('/api/user', () =>
      HttpResponse.json({
        ...userPayload(0, { hasPassword: false }),
        access_token: 'setup-1',
        token_type: 'Bearer',
        expires_in: 900,
        scope: 'setup',
      }),
    ),
  );
  const app = renderApp('/setup?token=invite-1');
  await app.user.click(await screen.findByRole('button', { name: 'Next' }));
  const form = await screen.findByRole('form', { name: 'Create Password' });
  return {
    ...app,
    form,
    password: within(form).getByLabelText('Password'),
    confirm: within(form).getByLabelText('Confirm password'),
  };
}

describe('Create Password', () => {
  it('shows the rules as a checklist tied to the field, and refuses the applicant’s own e-mail before submit', async () => {
    const { user, form, password } = await openCreatePassword();
    const rules = within(form).getByRole('list', { name: 'Password rules' });
    expect(password.getAttribute('aria-describedby')).toContain(rules.id);
    expect(
      within(rules)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      '○15 to 128 characters (not yet)',
      '○At least 4 different characters (not yet)',
      '○Not your username or e-mail address (not yet)',
      '○Not a common or leaked password, nor a sequence like 12345 or qwerty (not yet)',
    ]);
    await user.click(password);
    await user.paste('demo.applicant@example.com');
    await user.tab();
    expect(await within(form).findByText(passwordMessages.identity)).toBeInTheDocument();
    expect(within(rules).getByText(/Not your username/)).toHaveTextContent('(not yet)');
    expect(within(rules).getByText(/15 to 128 characters/)).toHaveTextContent('(done)');
  });

  it('puts the server’s refusal on the password field, once, focused, and keeps toasts out of it', async () => {
    server.use(
      http.patch('/api/v2/user', () =>
        HttpResponse.json(
          {
            errorMessage: 'validation error',
            errorFields: [
              { field: 'password', message: 'Your password must not contain your username or e-mail address.' },
            ],
          },
          { status: 422 },
        ),
      ),
    );
    const { user, form, password, confirm } = await openCreatePassword();
    await user.click(password);
    await user.paste('correct horse battery staple');
    await user.click(confirm);
    await user.paste('correct horse battery staple');
    await user.click(within(form).getByRole('button', { name: 'Create password' }));
    await waitFor(() => expect(password).toHaveFocus());
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getAllByText('Your password must not contain your username or e-mail address.')).toHaveLength(1);
    expect(notifications.getSnapshot()).toEqual([]);
  });
});
