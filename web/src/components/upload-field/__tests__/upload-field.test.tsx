import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import type { UploadOptions } from '@/lib/upload';
import { MAX_UPLOAD_BYTES, UploadField } from '../upload-field';

const LABEL = 'Add files: Diploma or transcript';

type Call = { file: File; options: UploadOptions; resolve: (answer: unknown) => void; reject: (e: unknown) => void };

/** An upload the test finishes by hand; Cancel (the signal) rejects it as XMLHttpRequest's abort does. */
function controlledUpload() {
  const calls: Call[] = [];
  const upload = vi.fn(
    (file: File, options: UploadOptions) =>
      new Promise<unknown>((resolve, reject) => {
        calls.push({ file, options, resolve, reject });
        options.signal?.addEventListener('abort', () => reject(new DOMException('cancelled', 'AbortError')));
      }),
  );
  return { upload, calls };
}

function file(name: string, size: number, type = 'application/pdf') {
  const f = new File(['x'.repeat(Math.min(size, 16))], name, { type });
  // The size the picker reports, without holding 20 MB in memory.
  Object.defineProperty(f, 'size', { value: size });
  return f;
}

function setup(props: Partial<Parameters<typeof UploadField>[0]> = {}) {
  const { upload, calls } = controlledUpload();
  const onUploaded = vi.fn();
  // applyAccept off: the test chooses files the picker's filter would hide, as a drop can bring them.
  const user = userEvent.setup({ applyAccept: false });
  render(<UploadField label={LABEL} upload={upload} onUploaded={onUploaded} {...props} />);
  const input = screen.getByLabelText(LABEL, { selector: 'input[type=file]' });
  return { user, upload, calls, onUploaded, input };
}

describe('UploadField', () => {
  it('idle: a labelled picker, a keyboard-reachable Choose files button, and the accepted types and limit in words', async () => {
    const { user, input } = setup();
    expect(screen.getByRole('group', { name: LABEL })).toBeInTheDocument();
    expect(input).toHaveAttribute('multiple');
    expect(input.getAttribute('accept')).toContain('.pdf');
    expect(screen.getByText('PDF, JPEG, PNG or GIF images, Word or Excel documents; up to 20 MB each.')).toBeVisible();
    const choose = screen.getByRole('button', { name: 'Choose files' });
    await user.tab();
    expect(choose).toHaveFocus();
    const click = vi.spyOn(input, 'click');
    await user.keyboard('{Enter}');
    expect(click).toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: 'Take a photo' })).not.toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });

  it('offers Take a photo (the camera, images only) on a touch screen', () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === '(pointer: coarse)' }));
    setup();
    expect(screen.getByRole('button', { name: 'Take a photo' })).toBeInTheDocument();
    const camera = screen.getByLabelText(`Take a photo: ${LABEL}`);
    expect(camera).toHaveAttribute('capture', 'environment');
    expect(camera).toHaveAttribute('accept', 'image/*');
    vi.unstubAllGlobals();
  });

  it('dragging over: highlighted while files are over it, and a drop sends them', () => {
    const { upload } = setup();
    const zone = screen.getByTestId('upload-drop-zone');
    const dataTransfer = { types: ['Files'], files: [file('diploma.pdf', 2048)], dropEffect: 'none' };
    fireEvent.dragEnter(zone, { dataTransfer });
    expect(zone).toHaveAttribute('data-dragging');
    expect(screen.getByText('Drop the files to add them')).toBeInTheDocument();
    fireEvent.dragLeave(zone, { dataTransfer });
    expect(zone).not.toHaveAttribute('data-dragging');
    fireEvent.dragEnter(zone, { dataTransfer });
    fireEvent.drop(zone, { dataTransfer });
    expect(zone).not.toHaveAttribute('data-dragging');
    expect(upload).toHaveBeenCalledTimes(1);
    expect(upload.mock.calls[0][0].name).toBe('diploma.pdf');
  });

  it('refuses before sending a file over the limit, one of a type not accepted, and an empty one, each said and tied to the picker', async () => {
    const { user, upload, input } = setup();
    await user.upload(input, [
      file('scan.jpg', MAX_UPLOAD_BYTES + 1, 'image/jpeg'),
      file('setup.exe', 1000, 'application/octet-stream'),
      file('blank.pdf', 0),
    ]);
    expect(upload).not.toHaveBeenCalled();
    const alerts = screen.getAllByRole('alert').map((a) => a.textContent);
    expect(alerts).toEqual([
      'scan.jpg is larger than 20 MB. Choose a smaller file, or take the photo at a lower resolution.',
      'This file type is not accepted. Upload a PDF, an image (JPEG, PNG or GIF), or a Word or Excel document.',
      'The file is empty.',
    ]);
    expect(screen.getByRole('button', { name: 'Choose files' })).toHaveAccessibleDescription(
      expect.stringContaining('The file is empty.'),
    );
    // Nothing to retry: only Remove.
    expect(screen.queryByRole('button', { name: /Retry/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove blank.pdf from the list' }));
    expect(screen.queryByText('The file is empty.')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Choose files' })).toHaveFocus();
  });

  it('uploading: a row per file with its name, size and a progress bar that follows the bytes sent', async () => {
    const { user, calls, input } = setup();
    await user.upload(input, [file('diploma.pdf', 3 * 1024 * 1024), file('license.png', 84 * 1024, 'image/png')]);
    expect(calls).toHaveLength(2);
    const row = screen.getByText('diploma.pdf').closest('li') as HTMLElement;
    expect(within(row).getByText('3 MB')).toBeInTheDocument();
    const bar = within(row).getByRole('progressbar', { name: 'Upload of diploma.pdf' });
    expect(bar).toHaveAttribute('aria-valuenow', '0');
    act(() => calls[0].options.onProgress?.(1024, 4096));
    expect(bar).toHaveAttribute('aria-valuenow', '25');
    expect(bar).toHaveAttribute('aria-valuetext', '25% sent');
    // The same value for the eye, hidden from screen readers (the bar says it).
    const shown = within(row).getByText('25% sent ·');
    expect(shown).toHaveAttribute('aria-hidden', 'true');
    expect(within(row).getByRole('button', { name: 'Cancel the upload of diploma.pdf' })).toBeInTheDocument();
    expect(screen.getByText('84 kB')).toBeInTheDocument();
  });

  it('cancelled: Cancel stops the upload, says so, and offers Retry (focused) and Remove', async () => {
    const { user, calls, input } = setup();
    await user.upload(input, file('diploma.pdf', 2048));
    await user.click(screen.getByRole('button', { name: 'Cancel the upload of diploma.pdf' }));
    expect(calls[0].options.signal?.aborted).toBe(true);
    expect(await screen.findByText('Upload cancelled.')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry the upload of diploma.pdf' })).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Remove diploma.pdf from the list' })).toBeInTheDocument();
  });

  it('refused by the server: its message, announced and tied to the picker; no Retry, since the same file would be refused again', async () => {
    const { user, calls, input } = setup();
    await user.upload(input, file('court-record.pdf', 2048));
    const message = "The file's content does not match its type: it is not a real PDF.";
    await act(async () => calls[0].reject(new ApiError(415, { errorMessage: message })));
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('button', { name: 'Choose files' })).toHaveAccessibleDescription(
      expect.stringContaining(message),
    );
    expect(screen.queryByRole('button', { name: /Retry/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove court-record.pdf from the list' })).toBeInTheDocument();
  });

  it("failed on the way (a busy server): the server's message, announced and tied to the picker; Retry sends the file again", async () => {
    const { user, calls, input, onUploaded } = setup();
    await user.upload(input, file('diploma.pdf', 2048));
    const message = 'The server is busy. Please try again in a moment.';
    await act(async () => calls[0].reject(new ApiError(503, { errorMessage: message })));
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('button', { name: 'Choose files' })).toHaveAccessibleDescription(
      expect.stringContaining(message),
    );
    await user.click(screen.getByRole('button', { name: 'Retry the upload of diploma.pdf' }));
    expect(calls).toHaveLength(2);
    expect(calls[1].file.name).toBe('diploma.pdf');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Upload of diploma.pdf' })).toBeInTheDocument();
    await act(async () => calls[1].resolve({ id: 7 }));
    expect(onUploaded).toHaveBeenCalledWith(calls[1].file, { id: 7 });
  });

  it("failed with a 'validation error': the field's message rather than the generic one", async () => {
    const { user, calls, input } = setup();
    await user.upload(input, file('diploma.pdf', 2048));
    await act(async () =>
      calls[0].reject(
        new ApiError(422, {
          errorMessage: 'validation error',
          errorFields: [{ field: 'documentType', message: 'Choose which document this is.' }],
        }),
      ),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Choose which document this is.');
    expect(screen.queryByText(/validation error/)).not.toBeInTheDocument();
  });

  it('done: the row goes, the caller gets the answer, and a status message says the file was sent', async () => {
    const { user, calls, input, onUploaded } = setup();
    await user.upload(input, file('diploma.pdf', 2048));
    await act(async () => calls[0].resolve({ id: 9, name: 'diploma.pdf' }));
    expect(screen.queryByText('diploma.pdf', { selector: 'span' })).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('diploma.pdf was sent.');
    expect(onUploaded).toHaveBeenCalledWith(calls[0].file, { id: 9, name: 'diploma.pdf' });
  });

  it('announces the upload as it goes: its start, each quarter once, and a cancel', async () => {
    const { user, calls, input } = setup();
    await user.upload(input, file('diploma.pdf', 2048));
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent('Uploading diploma.pdf');
    act(() => calls[0].options.onProgress?.(10, 100));
    expect(status).toHaveTextContent(/^Uploading diploma\.pdf$/);
    act(() => calls[0].options.onProgress?.(40, 100));
    expect(status).toHaveTextContent('Uploading diploma.pdf, 25%');
    act(() => calls[0].options.onProgress?.(52, 100));
    expect(status).toHaveTextContent('Uploading diploma.pdf, 50%');
    act(() => calls[0].options.onProgress?.(100, 100));
    expect(status).toHaveTextContent('Uploading diploma.pdf, 50%');
    await user.click(screen.getByRole('button', { name: 'Cancel the upload of diploma.pdf' }));
    expect(status).toHaveTextContent('The upload of diploma.pdf was cancelled.');
  });

  it('done, when the caller confirms uploads itself (a snackbar): no second announcement', async () => {
    const { user, calls, input, onUploaded } = setup({ announceUploaded: false });
    await user.upload(input, file('diploma.pdf', 2048));
    await act(async () => calls[0].resolve({ id: 9 }));
    expect(onUploaded).toHaveBeenCalled();
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  it('on a touch screen, no "drag files here": the buttons say what to do', () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === '(pointer: coarse)' }));
    setup();
    expect(screen.queryByText('Drag files here, or')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Choose files' })).toBeInTheDocument();
    vi.unstubAllGlobals();
  });

  it('disabled: nothing can be chosen or dropped', () => {
    const { upload } = setup({ disabled: true });
    expect(screen.getByRole('button', { name: 'Choose files' })).toBeDisabled();
    const zone = screen.getByTestId('upload-drop-zone');
    fireEvent.drop(zone, { dataTransfer: { types: ['Files'], files: [file('diploma.pdf', 10)] } });
    expect(upload).not.toHaveBeenCalled();
  });
});
