import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { logInAs, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';
import type { ReportAccess } from '../api/get-report-access';

vi.mock('pdfjs-dist', () => ({
  GlobalWorkerOptions: {},
  AnnotationMode: { ENABLE: 1 },
  getDocument: () => ({
    promise: Promise.resolve({
      numPages: 2,
      getPage: async () => ({
        getViewport: ({ scale }: { scale: number }) => ({ width: 600 * scale, height: 800 * scale }),
        render: () => ({ promise: Promise.resolve() }),
      }),
      destroy: async () => undefined,
    }),
  }),
}));

const locked: ReportAccess = {
  granted: false,
  grantedUntil: null,
  lockedUntil: null,
  ssnRequired: true,
  triesLeft: 5,
  fileNames: {
    report: 'background-report-P1001.pdf',
    'drug-report': 'drug-test-report-P1001.pdf',
    'ecoc-form': 'custody-and-control-form-P1001.pdf',
  },
};

/** The server as the tests need it: the access, the check (right for 1990-04-12 and 6789), the PDF. */
function serveReport(access: Partial<ReportAccess> = {}) {
  const state = { access: { ...locked, ...access }, reads: [] as string[], confirms: [] as unknown[] };
  server.use(
    http.get('/api/v2/user/profile/report/access', () => HttpResponse.json(state.access)),
    http.post('/api/v2/user/profile/report/confirm', async ({ request }) => {
      const body = (await request.json()) as { dob: string; ssnLast4?: string };
      state.confirms.push(body);
      if (body.dob === '1990-04-12' && (body.ssnLast4 === '6789' || !state.access.ssnRequired)) {
        state.access = { ...state.access, granted: true, grantedUntil: '2026-11-29T10:15:00Z' };
        return HttpResponse.json(state.access);
      }
      return HttpResponse.json(
        {
          errorMessage: 'validation error',
          errorFields: [
            {
              field: 'dob',
              message:
                'Enter the date of birth and the last 4 digits you gave us: these do not match. 4 tries left before a 15-minute lock.',
            },
          ],
        },
        { status: 422 },
      );
    }),
    http.get('/api/v2/user/profile/:kind', ({ request, params }) => {
      state.reads.push(`${String(params.kind)} ${new URL(request.url).searchParams.get('disposition')}`);
      return new HttpResponse('%PDF-1.4 report', { headers: { 'Content-Type': 'application/pdf' } });
    }),
  );
  return state;
}

async function typeDate(user: ReturnType<typeof renderApp>['user'], day: string, month: string, year: string) {
  await user.type(screen.getByRole('textbox', { name: 'Day' }), day);
  await user.type(screen.getByRole('textbox', { name: 'Month' }), month);
  await user.type(screen.getByRole('textbox', { name: 'Year' }), year);
}

afterEach(() => vi.restoreAllMocks());

describe('/report', () => {
  it('asks for the date of birth and the last 4 digits, shows what is wrong, then opens the report', async () => {
    logInAs(2);
    const state = serveReport();
    const { user } = renderApp('/report');
    expect(await screen.findByRole('heading', { level: 1, name: 'Your background report' })).toBeInTheDocument();
    await screen.findByRole('heading', { name: 'Confirm it is you' });
    const ssn = screen.getByRole('textbox', { name: /Last 4 digits of your Social Security number/ });
    expect(ssn).toHaveAttribute('inputmode', 'numeric');

    await user.click(screen.getByRole('button', { name: 'Continue to your report' }));
    const summary = await screen.findByRole('alert');
    expect(within(summary).getByRole('link', { name: 'Date of birth' })).toBeInTheDocument();
    expect(
      within(summary).getByRole('link', { name: 'Last 4 digits of your Social Security number' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Enter your date of birth')).toBeInTheDocument();
    expect(screen.getByText('Enter the last 4 digits of your Social Security number')).toBeInTheDocument();
    expect(state.confirms).toHaveLength(0);

    await typeDate(user, '12', '4', '1990');
    await user.type(ssn, '1234');
    await user.click(screen.getByRole('button', { name: 'Continue to your report' }));
    expect(await screen.findAllByText(/these do not match. 4 tries left/)).not.toHaveLength(0);

    await user.clear(ssn);
    await user.type(ssn, '6789');
    await user.click(screen.getByRole('button', { name: 'Continue to your report' }));
    expect(await screen.findByText('2 pages')).toBeInTheDocument();
    expect(state.confirms.at(-1)).toEqual({ dob: '1990-04-12', ssnLast4: '6789' });
    expect(screen.getByRole('img', { name: 'Page 1 of 2' })).toBeInTheDocument();
    expect(state.reads).toEqual(['report inline']);
    expect(screen.getByRole('link', { name: 'Dispute something in this report' })).toHaveAttribute(
      'href',
      '/disputes/new',
    );
  });

  it('zooms inside the viewer and records a download', async () => {
    logInAs(2);
    const state = serveReport({ granted: true, grantedUntil: '2026-11-29T10:15:00Z' });
    const saved: string[] = [];
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:test/1');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const { user } = renderApp('/report?kind=drug-report');
    expect(await screen.findByRole('heading', { level: 1, name: 'Your drug test report' })).toBeInTheDocument();
    await screen.findByText('2 pages');
    const zoom = screen.getByRole('group', { name: 'Zoom' });
    expect(within(zoom).getByRole('button', { name: 'Zoom out' })).toBeDisabled();
    await user.click(within(zoom).getByRole('button', { name: 'Zoom in' }));
    expect(within(zoom).getByText('150%')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('img', { name: 'Page 1 of 2' })).toHaveStyle({ width: '900px' }));

    await user.click(screen.getByRole('button', { name: 'Download the PDF' }));
    await waitFor(() => expect(saved).toEqual(['drug-test-report-P1001.pdf']));
    expect(state.reads).toEqual(['drug-report inline', 'drug-report attachment']);
  });

  it('asks for the date of birth alone from an applicant without an SSN', async () => {
    logInAs(2);
    serveReport({ ssnRequired: false });
    const { user } = renderApp('/report');
    expect(await screen.findByText(/you have no Social Security number/)).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /Last 4 digits/ })).not.toBeInTheDocument();
    await typeDate(user, '12', '4', '1990');
    await user.click(screen.getByRole('button', { name: 'Continue to your report' }));
    expect(await screen.findByText('2 pages')).toBeInTheDocument();
  });

  it('says until when it is locked after five wrong answers', async () => {
    logInAs(2);
    const until = new Date(Date.now() + 10 * 60_000);
    serveReport({ lockedUntil: until.toISOString(), triesLeft: 0 });
    renderApp('/report');
    const time = until.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
    expect(
      await screen.findByText(
        `The details entered did not match 5 times. For your security, you can try again at ${time}.`,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Continue to your report' })).not.toBeInTheDocument();
  });
});
