import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { raiseSsnMismatch } from '@/lib/app-events';
import { session } from '@/lib/session';
import { companySettings, legalDocuments, subjectData, userPayload } from '@/testing/fixtures';
import { logInAs, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';
import { cachedCurrentUser } from '@/lib/current-user';

function invitation(subject: Parameters<typeof userPayload>[1]) {
  server.use(
    http.get('/api/user', () =>
      HttpResponse.json({
        ...userPayload(0, { hasPassword: false, ...subject }),
        access_token: 'setup-1',
        token_type: 'Bearer',
        expires_in: 900,
        scope: 'setup',
      }),
    ),
  );
}

const stepNames = () =>
  within(screen.getByRole('list', { name: 'Setup steps' }))
    .getAllByRole('listitem')
    .map((li) => li.textContent);

describe('the setup wizard', () => {
  it('shows an invited applicant the five steps, starting at Welcome', async () => {
    invitation({});
    renderApp('/setup?token=invite-1');
    expect(await screen.findByRole('heading', { name: 'Welcome' })).toBeInTheDocument();
    // Kept to renew the setup credential (lib/api-client.ts).
    expect(session.get().invitationToken).toBe('invite-1');
    expect(stepNames()).toEqual([
      '1Welcome (current step)',
      '2Create Password',
      '3Login',
      '4Review Legal Notices',
      '5Personal Information',
    ]);
  });

  it('gives a full-profile applicant only the first three steps', async () => {
    invitation({ fullProfile: true });
    renderApp('/setup?token=invite-1');
    expect(await screen.findByRole('heading', { name: 'Welcome' })).toBeInTheDocument();
    expect(stepNames()).toEqual(['1Welcome (current step)', '2Create Password', '3Login']);
  });

  it('welcomes each applicant with the steps they will see', async () => {
    invitation({ fullProfile: true });
    const full = renderApp('/setup?token=invite-1');
    await screen.findByRole('heading', { name: 'Welcome' });
    expect(screen.getByText(/Setting up your account/)).toHaveTextContent(
      'Setting up your account comes first: you create a password and log in with it.',
    );
    full.unmount();
    session.set({ credentials: { ...session.get().credentials, jwt: null } });

    invitation({});
    renderApp('/setup?token=invite-1');
    await screen.findByRole('heading', { name: 'Welcome' });
    expect(screen.getByText(/Setting up your account/)).toHaveTextContent(
      'Setting up your account comes first: you create a password, log in with it, read and sign the legal notices and tell us about yourself.',
    );
  });

  it('welcomes with the provider, the employer that asked and why, and the step count for narrow screens', async () => {
    invitation({});
    server.use(
      http.get('/api/settings/company/:id', () =>
        HttpResponse.json({ ...companySettings(), companyLogoUrlAddress: 'https://example.invalid/acme.png' }),
      ),
    );
    renderApp('/setup?token=invite-1');
    const welcome = await screen.findByRole('region', { name: 'Welcome' });
    expect(within(welcome).getByText('Requested by Acme Logistics')).toBeInTheDocument();
    const trust = within(welcome).getByRole('complementary', { name: 'About this screening' });
    expect(trust).toHaveTextContent('Acme Logistics asked ClearPath Screening to run a background check');
    // Both brands in the top bar, logged out: the provider's, and the employer's logo, whose name
    // takes its place when it fails to load.
    const header = screen.getByRole('banner');
    expect(within(header).getByTestId('brand-wordmark')).toHaveTextContent('ClearPath Screening');
    const logo = await within(header).findByRole('img', { name: 'Acme Logistics logo' });
    expect(logo).toHaveAttribute('src', 'https://example.invalid/acme.png');
    act(() => logo.dispatchEvent(new Event('error')));
    expect(within(header).getByTestId('header-employer')).toHaveTextContent('Acme Logistics');
    expect(within(header).queryByRole('img', { name: 'Acme Logistics logo' })).toBeNull();
    expect(screen.getByTestId('stepper-compact')).toHaveTextContent('Step 1 of 5: Welcome');
  });

  it('marks a finished step opened again with Back as the one shown', async () => {
    invitation({});
    const { user, router } = renderApp('/setup?token=invite-1');
    await user.click(await screen.findByRole('button', { name: 'Next' }));
    await screen.findByRole('heading', { name: 'Create Password' });
    await act(() => router.navigate(-1));
    await screen.findByRole('heading', { name: 'Welcome' });
    const items = within(screen.getByRole('list', { name: 'Setup steps' })).getAllByRole('listitem');
    expect(items[0]).toHaveAttribute('aria-current', 'step');
    expect(items[0]).toHaveTextContent('Welcome (complete)');
    expect(items[1]).not.toHaveAttribute('aria-current');
    expect(screen.getByTestId('stepper-compact')).toHaveTextContent('Step 1 of 5: Welcome');
  });

  it('Welcome leads to Create Password, which asks for the company’s minimum length', async () => {
    invitation({});
    const { user } = renderApp('/setup?token=invite-1');
    await user.click(await screen.findByRole('button', { name: 'Next' }));
    const createPassword = await screen.findByRole('heading', { name: 'Create Password' });
    await waitFor(() => expect(createPassword).toHaveFocus());
    expect(screen.getByText(/at least 15 characters/)).toBeInTheDocument();
    expect(stepNames()[0]).toBe('✓Welcome (complete)');
  });

  it('an applicant who logs in after creating a password resumes at the legal notices', async () => {
    logInAs(0, { payload: userPayload(0, { hasPassword: true }) });
    renderApp('/setup');
    expect(await screen.findByRole('heading', { name: 'Review Legal Notices' })).toBeInTheDocument();
    expect(stepNames().slice(0, 3)).toEqual([
      '✓Welcome (complete)',
      '✓Create Password (complete)',
      '✓Login (complete)',
    ]);
  });

  it('a full-profile applicant is done once logged in: setup completes on the server and lands on /profile', async () => {
    let posted: unknown;
    let userFetches = 0;
    server.use(
      http.post('/api/v2/user/subject/status', async ({ request }) => {
        posted = await request.json();
        return HttpResponse.json(userPayload(1, { fullProfile: true }));
      }),
      http.get('/api/v2/user', () => {
        userFetches++;
        return HttpResponse.json(userPayload(1, { fullProfile: true }));
      }),
    );
    logInAs(0, { payload: userPayload(0, { hasPassword: true, fullProfile: true }) });
    const { router } = renderApp('/setup');
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(posted).toEqual({ statusId: 1 });
    // After a status move the user is fetched again, so every tab part sees the same status.
    await waitFor(() => expect(userFetches).toBe(1));
  });

  it('names what is missing when the server refuses to complete setup, and can try again', async () => {
    let calls = 0;
    server.use(
      http.post('/api/v2/user/subject/status', () =>
        ++calls === 1
          ? HttpResponse.json(
              {
                errorMessage:
                  'Cannot change status from New to Setup Complete: please save your personal information first.',
              },
              { status: 409 },
            )
          : HttpResponse.json(userPayload(1, { fullProfile: true })),
      ),
      http.get('/api/v2/user', () => HttpResponse.json(userPayload(1, { fullProfile: true }))),
    );
    logInAs(0, { payload: userPayload(0, { hasPassword: true, fullProfile: true }) });
    const { user, router } = renderApp('/setup');
    const refused = await screen.findByRole('alert');
    expect(refused).toHaveTextContent('please save your personal information first.');
    await user.click(within(refused).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(calls).toBe(2);
  });
});

describe('clearing the signatures after an SSN mismatch', () => {
  it('goes back to the first legal step, marked incomplete, with the documents fetched again', async () => {
    let documents = legalDocuments([
      { id: 1, documentType: 'e_sign', title: 'Consent to electronic signatures', signed: true },
      { id: 2, documentType: 'disclosure', title: 'Background check disclosure', signed: true },
    ]);
    let documentFetches = 0;
    server.use(
      http.get('/api/v2/user/document', () => {
        documentFetches++;
        return HttpResponse.json(documents);
      }),
      http.get('/api/v2/user/data', () =>
        HttpResponse.json(
          subjectData({
            residency: { nonUs: false, state: 'US-TX', county: 0 },
            employment: { nonUs: false, state: 'US-TX', county: 0 },
          }),
        ),
      ),
      http.delete('/api/v2/user/document/:id', ({ params }) => {
        documents = documents.map((d) => (d.id === Number(params.id) ? { ...d, signature: null } : d));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    logInAs(0, { payload: userPayload(0, { hasPassword: true }) });
    const { user } = renderApp('/setup');
    expect(await screen.findByRole('heading', { name: 'Personal Information' })).toBeInTheDocument();
    const fetchesBefore = documentFetches;
    act(() => raiseSsnMismatch('The last four digits do not match the SSN on your application.'));
    await user.click(await screen.findByRole('button', { name: 'Clear my signatures and sign again' }));

    expect(await screen.findByRole('form', { name: 'Sign: Consent to electronic signatures' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Review Legal Notices' })).toBeInTheDocument();
    expect(stepNames()[3]).toBe('4Review Legal Notices (current step)');
    expect(documentFetches).toBeGreaterThan(fetchesBefore);
    // It stays there: the cleared list does not complete the step again.
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('heading', { name: 'Personal Information' })).not.toBeInTheDocument();
  }, 15_000);
});

describe('the browser history inside the wizard', () => {
  it('Back and Forward move between steps, and Back cannot reopen Create Password once the password exists', async () => {
    invitation({});
    server.use(http.patch('/api/v2/user', () => HttpResponse.json(userPayload(0, { hasPassword: true }))));
    const { user, router } = renderApp('/setup?token=invite-1');
    await screen.findByRole('heading', { name: 'Welcome' });
    await waitFor(() => expect(router.state.location.search).toBe('?token=invite-1&step=welcome'));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('heading', { name: 'Create Password' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?token=invite-1&step=password');

    await act(() => router.navigate(-1));
    const welcome = await screen.findByRole('heading', { name: 'Welcome' });
    await waitFor(() => expect(welcome).toHaveFocus());
    await act(() => router.navigate(1));
    expect(await screen.findByRole('heading', { name: 'Create Password' })).toBeInTheDocument();

    await user.type(screen.getByLabelText('Password', { exact: true }), 'correct horse battery staple');
    await user.type(screen.getByLabelText('Confirm password'), 'correct horse battery staple');
    await user.click(screen.getByRole('button', { name: 'Create password' }));
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?token=invite-1&step=login');

    // The Create Password entry was replaced: Back goes to Welcome, and Next from there returns to Login.
    await act(() => router.navigate(-1));
    expect(await screen.findByRole('heading', { name: 'Welcome' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();

    // A URL naming Create Password shows the next valid step.
    await act(() => router.navigate('/setup?token=invite-1&step=password'));
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe('?token=invite-1&step=login'));
  }, 15_000);

  it('Back from Personal Information shows the signed legal notices, with a way to continue', async () => {
    server.use(
      http.get('/api/v2/user/document', () =>
        HttpResponse.json(
          legalDocuments([{ id: 1, documentType: 'e_sign', title: 'Consent to electronic signatures', signed: true }]),
        ),
      ),
      http.get('/api/v2/user/data', () =>
        HttpResponse.json(
          subjectData({
            residency: { nonUs: false, state: 'US-TX', county: 0 },
            employment: { nonUs: false, state: 'US-TX', county: 0 },
          }),
        ),
      ),
    );
    logInAs(0, { payload: userPayload(0, { hasPassword: true }) });
    const { user, router } = renderApp('/setup');
    expect(await screen.findByRole('heading', { name: 'Personal Information' })).toBeInTheDocument();
    await act(() => router.navigate(-1));
    expect(await screen.findByRole('heading', { level: 2, name: 'Review Legal Notices' })).toBeInTheDocument();
    expect(await screen.findByText(/You signed this on/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue to Personal Information' }));
    expect(await screen.findByRole('heading', { name: 'Personal Information' })).toBeInTheDocument();
  }, 15_000);
});

describe('the status an open tab believes', () => {
  it('is fetched again when the window gets focus, and the guards send the applicant on', async () => {
    logInAs(1);
    const { router } = renderApp('/profile');
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    await screen.findByRole('heading', { level: 1, name: /Welcome, / });
    // Meanwhile identity verification started elsewhere.
    server.use(http.get('/api/v2/user', () => HttpResponse.json(userPayload(3))));
    act(() => window.dispatchEvent(new Event('focus')));
    await waitFor(() => expect(router.state.location.pathname).toBe('/idv'));
    expect(cachedCurrentUser()?.subject.status?.statusId).toBe(3);
  });
});
