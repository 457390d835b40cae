import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { legalDocuments, subjectData } from '@/testing/fixtures';
import { logInAs, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

const texas = subjectData({
  residency: { nonUs: false, state: 'US-TX', county: 0 },
  employment: { nonUs: false, state: 'US-TX', county: 0 },
});

/** What saveFile hands to the browser: the blob and the file name. */
function captureDownloads() {
  const saved: { blob: Blob; name: string }[] = [];
  const blobs = new Map<string, Blob>();
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:test/${blobs.size}`;
    blobs.set(url, blob as Blob);
    return url;
  });
  const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ blob: blobs.get(this.href) as Blob, name: this.download });
  });
  return { saved, revoke };
}

beforeEach(() => {
  server.use(http.get('/api/v2/user/data', () => HttpResponse.json(texas)));
});
afterEach(() => vi.restoreAllMocks());

describe('legal notices to keep', () => {
  it('a notice can be downloaded as a file before it is signed; the object URL is revoked after 100 ms', async () => {
    const { saved, revoke } = captureDownloads();
    logInAs(0, {});
    const { user } = renderApp('/setup');
    const form = await screen.findByRole('form', { name: /^Sign: / });
    expect(form).toBeInTheDocument();
    const download = await screen.findByRole('button', { name: 'Download a copy: Document 1' });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(download);
    expect(saved).toHaveLength(1);
    expect(saved[0].name).toBe('esign-v1.html');
    const html = await saved[0].blob.text();
    expect(html).toContain('<title>Document 1</title>');
    expect(html).toContain('Sample text of document 1.');
    expect(revoke).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(revoke).toHaveBeenCalledWith('blob:test/0');
    vi.useRealTimers();
  });

  it('the page after setup lists the signed documents, linking to their print pages and signed PDFs', async () => {
    server.use(
      http.get('/api/v2/user/document', () =>
        HttpResponse.json(
          legalDocuments([
            { id: 1, documentType: 'e_sign', title: 'Consent to electronic signatures', signed: true },
            { id: 2, documentType: 'disclosure', title: 'Background check disclosure', signed: true },
          ]),
        ),
      ),
    );
    logInAs(1);
    renderApp('/profile');
    const list = await screen.findByRole('region', { name: 'Your signed documents' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    expect(within(list).getByRole('link', { name: 'View and print: Background check disclosure' })).toHaveAttribute(
      'href',
      '/print/disclosure#document-2',
    );
    expect(
      within(list).getByRole('button', { name: 'Download signed PDF: Consent to electronic signatures' }),
    ).toBeInTheDocument();
  });

  it('a print page of several signed notices names each signature block by its document', async () => {
    server.use(
      http.get('/api/v2/user/document', () =>
        HttpResponse.json(
          legalDocuments([
            { id: 6, documentType: 'rights', title: 'Your rights', signed: true },
            { id: 9, documentType: 'rights_fed', title: 'A Summary of Your Rights', signed: true },
          ]),
        ),
      ),
    );
    logInAs(1);
    renderApp('/print/rights');
    // The signature blocks (the page may also hold the notifications' region, once its chunk has loaded).
    const blocks = () => screen.getAllByRole('region', { name: /^Signature: / });
    await waitFor(() => expect(blocks()).toHaveLength(2));
    // Landmarks of one kind need names of their own (axe: landmark-unique).
    expect(blocks().map((r) => r.getAttribute('aria-label'))).toEqual([
      'Signature: Your rights',
      'Signature: A Summary of Your Rights',
    ]);
  });

  it('a print page leads back into the app', async () => {
    server.use(
      http.get('/api/v2/user/document', () =>
        HttpResponse.json(
          legalDocuments([{ id: 2, documentType: 'disclosure', title: 'Background check disclosure', signed: true }]),
        ),
      ),
    );
    logInAs(1);
    const { user, router } = renderApp('/print/disclosure');
    await user.click(await screen.findByRole('link', { name: '← Back to the Applicant Portal' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
  });
});
