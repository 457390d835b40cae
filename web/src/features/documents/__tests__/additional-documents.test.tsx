import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { QueryProvider } from '@/app/query-provider';
import { subjectRead } from '@/testing/fixtures';
import { logInAs, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';
import type { DocumentList, UploadedDocument } from '../api/documents';
import { DocumentsSummary } from '../components/documents-summary';

function sentDocument(overrides: Partial<UploadedDocument> = {}): UploadedDocument {
  return {
    id: 7,
    documentType: 'drivers_license',
    name: 'license.png',
    contentType: 'image/png',
    size: 123456,
    sha256: 'a'.repeat(64),
    createdAt: '2026-11-22T23:01:02Z',
    ...overrides,
  };
}

function documentList(overrides: Partial<DocumentList> = {}): DocumentList {
  return {
    documentTypes: [
      {
        type: 'drivers_license',
        title: "Driver's license or state ID",
        description: 'A photo or scan of the front of your license.',
        required: true,
      },
      { type: 'diploma', title: 'Diploma or transcript', description: '', required: false },
    ],
    documents: [sentDocument()],
    reports: [{ kind: 'report', name: 'background-report-P1001.pdf', size: 52311, createdAt: '2026-11-22T23:01:02Z' }],
    writable: true,
    deletable: true,
    maxUploadBytes: 20971520,
    ...overrides,
  };
}

/** GET answers `list` as it is now: the tests change it as the server would. */
function serveDocuments(list: DocumentList) {
  const state = { list, subjectReads: 0 };
  server.use(
    http.get('/api/v2/user/profile/documents', () => HttpResponse.json(state.list)),
    http.get('/api/v2/user/subject', () => {
      state.subjectReads++;
      return HttpResponse.json({ payload: subjectRead() });
    }),
  );
  return state;
}

/** What saveFile hands to the browser: the blob and the file name. */
function captureDownloads() {
  const saved: { blob: Blob; name: string }[] = [];
  const blobs = new Map<string, Blob>();
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:test/${blobs.size}`;
    blobs.set(url, blob as Blob);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ blob: blobs.get(this.href) as Blob, name: this.download });
  });
  return saved;
}

afterEach(() => vi.restoreAllMocks());

describe('/additional-documents', () => {
  it('shows a card per requested type with its badge, picker and files sent, the reports, and the way on', async () => {
    logInAs(1);
    serveDocuments(documentList());
    renderApp('/additional-documents');
    expect(await screen.findByRole('heading', { level: 1, name: 'Additional Documents' })).toBeInTheDocument();
    expect(
      screen.getByText(/stored encrypted. Only the screening team working for your employer can see them/),
    ).toBeInTheDocument();
    const license = await screen.findByRole('region', { name: "Driver's license or state ID" });
    expect(within(license).getByText('Required')).toBeInTheDocument();
    expect(within(license).getByText('Sent')).toBeInTheDocument();
    expect(within(license).getByText('A photo or scan of the front of your license.')).toBeInTheDocument();
    expect(within(license).getByRole('group', { name: "Add files: Driver's license or state ID" })).toBeInTheDocument();
    expect(within(license).getByText('license.png')).toBeInTheDocument();
    expect(within(license).getByText('121 kB · sent November 22, 2026')).toBeInTheDocument();
    const diploma = screen.getByRole('region', { name: 'Diploma or transcript' });
    expect(within(diploma).getByText('Optional')).toBeInTheDocument();
    expect(within(diploma).getByText('Nothing sent yet.')).toBeInTheDocument();
    const reports = screen.getByRole('region', { name: 'Your reports' });
    expect(within(reports).getByText('Background report')).toBeInTheDocument();
    expect(within(reports).getByRole('link', { name: 'Read your background report' })).toHaveAttribute(
      'href',
      '/report',
    );
    expect(screen.getByRole('link', { name: 'Back to your profile' })).toHaveAttribute('href', '/profile');
    expect(await screen.findByRole('link', { name: 'Continue with Other Names' })).toHaveAttribute('href', '/aliases');
  });

  it("opened from the review's Change link, the way on leads back to the review", async () => {
    logInAs(1);
    serveDocuments(documentList());
    renderApp('/additional-documents?return=review');
    const back = await screen.findByRole('link', { name: 'Review and submit' });
    expect(back).toHaveAttribute('href', '/confirmation');
  });

  it('uploads a file: documentType first, then the file; the list and the checklist are read again', async () => {
    logInAs(1);
    const state = serveDocuments(documentList({ documents: [] }));
    const parts: string[] = [];
    server.use(
      http.post('/api/v2/user/profile/documents', async ({ request }) => {
        const body = await request.formData();
        for (const [name] of body.entries()) parts.push(name);
        // jsdom's File does not survive MSW's XMLHttpRequest interception (its content and name arrive
        // empty); a real browser sends them, which the Playwright check covers.
        const created = sentDocument({ id: 8, documentType: String(body.get('documentType')), name: 'diploma.pdf' });
        state.list = { ...state.list, documents: [created] };
        return HttpResponse.json(created, { status: 201 });
      }),
    );
    const { user } = renderApp('/additional-documents');
    const diploma = await screen.findByRole('region', { name: 'Diploma or transcript' });
    const readsBefore = state.subjectReads;
    const input = within(diploma).getByLabelText('Add files: Diploma or transcript', { selector: 'input[type=file]' });
    await user.upload(input, new File(['%PDF-1.7 diploma'], 'diploma.pdf', { type: 'application/pdf' }));
    expect(await screen.findByText('Document uploaded')).toBeInTheDocument();
    expect(parts).toEqual(['documentType', 'file']);
    expect(await within(diploma).findByText('diploma.pdf')).toBeInTheDocument();
    await waitFor(() => expect(state.subjectReads).toBeGreaterThan(readsBefore));
  });

  it('several files at once: one "Document uploaded" on screen, said once per file (not also by the field)', async () => {
    logInAs(1);
    const state = serveDocuments(documentList({ documents: [] }));
    let id = 20;
    server.use(
      http.post('/api/v2/user/profile/documents', () => {
        const created = sentDocument({ id: ++id, documentType: 'diploma', name: `page-${id}.pdf` });
        state.list = { ...state.list, documents: [created, ...state.list.documents] };
        return HttpResponse.json(created, { status: 201 });
      }),
    );
    const { user } = renderApp('/additional-documents');
    const diploma = await screen.findByRole('region', { name: 'Diploma or transcript' });
    const input = within(diploma).getByLabelText('Add files: Diploma or transcript', { selector: 'input[type=file]' });
    await user.upload(input, [
      new File(['%PDF-1.7 a'], 'page-1.pdf', { type: 'application/pdf' }),
      new File(['%PDF-1.7 b'], 'page-2.pdf', { type: 'application/pdf' }),
    ]);
    expect(await within(diploma).findByText('page-22.pdf')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByText('Document uploaded')).toHaveLength(1));
    expect(screen.queryByText(/was sent\./)).not.toBeInTheDocument();
  });

  it("refuses a 21 MB file before sending it, and shows the server's refusal of another", async () => {
    logInAs(1);
    serveDocuments(documentList({ documents: [] }));
    server.use(
      http.post('/api/v2/user/profile/documents', () =>
        HttpResponse.json(
          { errorMessage: "The file's content does not match its type: it is not a real PDF." },
          { status: 415 },
        ),
      ),
    );
    const { user } = renderApp('/additional-documents');
    const diploma = await screen.findByRole('region', { name: 'Diploma or transcript' });
    const input = within(diploma).getByLabelText('Add files: Diploma or transcript', { selector: 'input[type=file]' });
    const big = new File(['x'], 'scan.pdf', { type: 'application/pdf' });
    Object.defineProperty(big, 'size', { value: 21 * 1024 * 1024 });
    await user.upload(input, [big, new File(['MZ'], 'tool.pdf', { type: 'application/pdf' })]);
    expect(
      await within(diploma).findByText(
        'scan.pdf is larger than 20 MB. Choose a smaller file, or take the photo at a lower resolution.',
      ),
    ).toBeInTheDocument();
    expect(
      await within(diploma).findByText("The file's content does not match its type: it is not a real PDF."),
    ).toBeInTheDocument();
    // The same bytes would be refused again: Remove, not Retry.
    expect(within(diploma).queryByRole('button', { name: 'Retry the upload of tool.pdf' })).not.toBeInTheDocument();
    expect(within(diploma).getByRole('button', { name: 'Remove tool.pdf from the list' })).toBeInTheDocument();
  });

  it('deletes a file after a confirmation; Keep it leaves it', async () => {
    logInAs(1);
    const state = serveDocuments(documentList());
    let deleted = 0;
    server.use(
      http.delete('/api/v2/user/profile/documents/:id', ({ params }) => {
        expect(params.id).toBe('7');
        deleted++;
        state.list = { ...state.list, documents: [] };
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user } = renderApp('/additional-documents');
    const license = await screen.findByRole('region', { name: "Driver's license or state ID" });
    const remove = within(license).getByRole('button', { name: 'Delete license.png' });
    await user.click(remove);
    const dialog = await screen.findByRole('dialog', { name: 'Delete license.png?' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(deleted).toBe(0);
    await waitFor(() => expect(remove).toHaveFocus());
    await user.click(remove);
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete file' }));
    expect(await screen.findByText('Document deleted')).toBeInTheDocument();
    expect(deleted).toBe(1);
    await waitFor(() => expect(within(license).queryByText('license.png')).not.toBeInTheDocument());
    expect(within(license).getByText('Nothing sent yet.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('heading', { name: "Driver's license or state ID" })).toHaveFocus());
  });

  it('downloads a file sent under its name', async () => {
    logInAs(1);
    serveDocuments(documentList());
    server.use(
      http.get(
        '/api/v2/user/profile/documents/:id',
        () =>
          new HttpResponse('PNG bytes', {
            headers: { 'Content-Type': 'image/png' },
          }),
      ),
    );
    const saved = captureDownloads();
    const { user } = renderApp('/additional-documents');
    await user.click(await screen.findByRole('button', { name: 'Download license.png' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0].name).toBe('license.png');
    expect(await saved[0].blob.text()).toBe('PNG bytes');
  });

  it('once the screening is complete: no picker and no Delete, and a notice says why', async () => {
    logInAs(1);
    serveDocuments(documentList({ writable: false, deletable: false }));
    renderApp('/additional-documents');
    expect(await screen.findByText(/documents can no longer be changed/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Choose files' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download license.png' })).toBeInTheDocument();
    // A type with no file says so without promising a chance that is gone.
    const diploma = screen.getByRole('region', { name: 'Diploma or transcript' });
    expect(within(diploma).getByText('Nothing was sent.')).toBeInTheDocument();
    expect(screen.queryByText('Nothing sent yet.')).not.toBeInTheDocument();
  });

  it('after submission: files can still be sent, but what was sent has no Delete', async () => {
    logInAs(1);
    serveDocuments(documentList({ writable: true, deletable: false }));
    renderApp('/additional-documents');
    expect(await screen.findByRole('button', { name: 'Download license.png' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Choose files' }).length).toBeGreaterThan(0);
  });

  it('says there is nothing to upload when the package asks for no document', async () => {
    logInAs(1);
    serveDocuments(documentList({ documentTypes: [], documents: [], reports: [] }));
    renderApp('/additional-documents');
    expect(await screen.findByRole('heading', { name: 'Nothing to upload' })).toBeInTheDocument();
  });

  it('says when the documents cannot be read, and tries again', async () => {
    logInAs(1);
    let calls = 0;
    server.use(
      http.get('/api/v2/user/profile/documents', () => {
        calls++;
        return calls === 1
          ? HttpResponse.json({ errorMessage: 'Profile not found.' }, { status: 404 })
          : HttpResponse.json(documentList());
      }),
    );
    const { user } = renderApp('/additional-documents');
    expect(await screen.findByText('Your documents could not be loaded: Profile not found.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: "Driver's license or state ID" })).toBeInTheDocument();
  });
});

function renderSummary() {
  const router = createMemoryRouter([{ path: '/', element: <DocumentsSummary /> }]);
  const user = userEvent.setup();
  render(
    <AppProvider>
      <QueryProvider>
        <RouterProvider router={router} />
      </QueryProvider>
    </AppProvider>,
  );
  return { user };
}

describe('DocumentsSummary', () => {
  it('lists each requested type as sent or not, links to the page, and offers the reports', async () => {
    logInAs(1);
    serveDocuments(documentList());
    renderSummary();
    const card = await screen.findByRole('region', { name: 'Documents' });
    expect(within(card).getByText('Sent (1)')).toBeInTheDocument();
    expect(within(card).getByText('Not sent yet')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Upload or view documents' })).toHaveAttribute(
      'href',
      '/additional-documents',
    );
    expect(within(card).getByRole('link', { name: 'Read your background report' })).toHaveAttribute('href', '/report');
  });

  it('shows nothing when nothing is asked for and no report is attached', async () => {
    logInAs(1);
    serveDocuments(documentList({ documentTypes: [], documents: [], reports: [] }));
    renderSummary();
    await waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument());
    expect(screen.queryByRole('region', { name: 'Documents' })).not.toBeInTheDocument();
  });
});
