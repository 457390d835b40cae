import { afterEach, describe, expect, it, vi } from 'vitest';
import { logInAs } from '@/testing/render-app';
import { uploadDocument } from '../api/documents';

afterEach(() => vi.unstubAllGlobals());

describe('uploadDocument', () => {
  it('sends multipart form data with documentType first, then the file under its name', async () => {
    logInAs(1);
    let body: FormData | undefined;
    let url = '';
    class CapturingXhr {
      upload = {};
      status = 201;
      responseText = JSON.stringify({ id: 1 });
      onload: (() => void) | null = null;
      open(_method: string, to: string) {
        url = to;
      }
      setRequestHeader() {}
      getAllResponseHeaders() {
        return 'content-type: application/json\r\n';
      }
      send(sent: FormData) {
        body = sent;
        queueMicrotask(() => this.onload?.());
      }
    }
    vi.stubGlobal('XMLHttpRequest', CapturingXhr);
    const file = new File(['%PDF-1.7'], 'diploma.pdf', { type: 'application/pdf' });
    await expect(uploadDocument('diploma', file)).resolves.toEqual({ id: 1 });
    expect(new URL(url).pathname).toBe('/api/v2/user/profile/documents');
    const entries = [...(body as FormData).entries()];
    expect(entries.map(([name]) => name)).toEqual(['documentType', 'file']);
    expect(entries[0][1]).toBe('diploma');
    expect((entries[1][1] as File).name).toBe('diploma.pdf');
  });
});
