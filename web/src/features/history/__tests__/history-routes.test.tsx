import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { userPayload } from '@/testing/fixtures';
import { logInAs, renderApp, settled } from '@/testing/render-app';
import { server } from '@/testing/server';

const page = (id: string, path: string, title: string, complete = false) => ({
  id,
  path,
  title,
  required: true,
  complete,
  missing: [],
});

function subjectWith(pages: ReturnType<typeof page>[]) {
  return {
    payload: {
      location: null,
      noDataAvailable: { credential: false, education: false, employment: false },
      insufficientDataBypass: false,
      bypassNotes: '',
      services: {},
      serviceStatuses: {},
      aliases: [],
      addresses: [],
      pages,
      dotReleases: [],
      readyToSubmit: false,
    },
  };
}

describe('the history pages', () => {
  it('/aliases says when the names cannot be read, and tries again', async () => {
    logInAs(1);
    let calls = 0;
    server.use(
      http.get('/api/v2/user/subject/alias', () => {
        calls++;
        return calls === 1
          ? HttpResponse.json({ errorMessage: 'Database unavailable' }, { status: 404 })
          : HttpResponse.json({ payload: { aliases: [], saved: false } });
      }),
    );
    const { user } = renderApp('/aliases');
    expect(await screen.findByRole('heading', { level: 1, name: 'Other Names' })).toBeInTheDocument();
    expect(await screen.findByText('Error retrieving other names: Database unavailable')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('form', { name: 'Other Names' })).toBeInTheDocument();
  });

  it('/addresses says when the history cannot be read', async () => {
    logInAs(1);
    server.use(
      http.get('/api/v2/user/subject/address', () => HttpResponse.json({ errorMessage: 'Not found' }, { status: 404 })),
    );
    renderApp('/addresses');
    expect(await screen.findByText('Error retrieving address history: Not found')).toBeInTheDocument();
  });

  it('Save and continue on /aliases goes to the next page the checklist still needs', async () => {
    logInAs(1);
    server.use(
      http.get('/api/v2/user/subject/alias', () => HttpResponse.json({ payload: { aliases: [], saved: false } })),
      http.put('/api/v2/user/subject/alias', () => HttpResponse.json({ payload: { aliases: [], saved: true } })),
      http.get('/api/v2/user/subject', () =>
        HttpResponse.json(
          subjectWith([
            page('personal', '/personal', 'Personal Information', true),
            page('aliases', '/aliases', 'Other Names', true),
            page('addresses', '/addresses', 'Address History'),
          ]),
        ),
      ),
      http.get('/api/v2/user/subject/address', () =>
        HttpResponse.json({
          payload: {
            addresses: [],
            saved: false,
            requiredYears: 7,
            coverageStart: '2019-11',
            gaps: [],
            releaseFormRequired: false,
          },
        }),
      ),
    );
    const { user, router } = renderApp('/aliases');
    await user.click(await screen.findByLabelText('I have not used any other names'));
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/addresses'));
    await settled(router);
    expect(await screen.findByRole('form', { name: 'Address History' })).toBeInTheDocument();
  });

  it('/personal-data shows the personal information form', async () => {
    logInAs(1);
    // The page reads the user afresh: the server answers the same setup-complete applicant (the
    // default handler's would send them home, first when the page's chunk loads slowly).
    server.use(http.get('/api/v2/user', () => HttpResponse.json(userPayload(1))));
    renderApp('/personal-data');
    expect(await screen.findByRole('form', { name: 'Personal Information' })).toBeInTheDocument();
  });
});
