import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PdfPreview } from '../components/pdf-preview';

// jsdom has no canvas drawing: pdf.js is replaced by one that writes, on each page's canvas, the answers
// and the width it was drawn for, and whose drawing can be held back to stand for a slow one.
const drawing = vi.hoisted(() => ({
  held: null as null | { release: () => void },
  hold: false,
  count: 0,
}));

vi.mock('../lib/pdf-fields', () => ({
  // The "PDF" is the answers as JSON: what the fake pdf.js draws.
  fillPdf: async (_template: ArrayBuffer, values: Record<string, unknown>) =>
    new TextEncoder().encode(JSON.stringify(values)),
}));

vi.mock('pdfjs-dist', () => ({
  GlobalWorkerOptions: {},
  AnnotationMode: { ENABLE: 1 },
  getDocument: ({ data }: { data: Uint8Array }) => ({
    promise: Promise.resolve({
      numPages: 1,
      getPage: async () => ({
        getViewport: ({ scale }: { scale: number }) => ({ width: 600 * scale, height: 800 * scale }),
        render: ({ canvas }: { canvas: HTMLCanvasElement }) => {
          drawing.count++;
          canvas.dataset.answers = new TextDecoder().decode(data);
          const done = drawing.hold
            ? new Promise<void>((resolve) => {
                drawing.held = { release: resolve };
              })
            : Promise.resolve();
          return { promise: done };
        },
      }),
      destroy: async () => undefined,
    }),
  }),
}));

const template = new ArrayBuffer(8);

const page = (within_: HTMLElement = document.body) =>
  within(within_).getByRole('img', { name: 'Page 1 of 1 of the filled form' });

afterEach(() => {
  drawing.hold = false;
  drawing.held = null;
  drawing.count = 0;
});

describe('PdfPreview', () => {
  it('draws the answers again as they change, the old picture kept until the new one replaces it', async () => {
    const view = render(<PdfPreview template={template} values={{ name: 'D' }} title="Form" />);
    await waitFor(() => expect(page().dataset.answers).toBe('{"name":"D"}'));
    const first = page();

    view.rerender(<PdfPreview template={template} values={{ name: 'Dana' }} title="Form" />);
    // Until the new drawing is done, the last one stays: no blank, no "Drawing…" again.
    expect(first).toBeInTheDocument();
    expect(screen.queryByText('Drawing the preview…')).not.toBeInTheDocument();
    await waitFor(() => expect(page().dataset.answers).toBe('{"name":"Dana"}'));
    expect(first).not.toBeInTheDocument();
  });

  it('keeps up behind a slow drawing: what changed meanwhile is drawn next, the newest answers only', async () => {
    const view = render(<PdfPreview template={template} values={{ name: 'D' }} title="Form" />);
    await waitFor(() => expect(page().dataset.answers).toBe('{"name":"D"}'));

    drawing.hold = true;
    view.rerender(<PdfPreview template={template} values={{ name: 'Da' }} title="Form" />);
    await waitFor(() => expect(drawing.held).not.toBeNull());
    drawing.hold = false;
    view.rerender(<PdfPreview template={template} values={{ name: 'Dan' }} title="Form" />);
    view.rerender(<PdfPreview template={template} values={{ name: 'Dana' }} title="Form" />);
    // Past the wait for typing to pause, the slow drawing is still under way: nothing more starts.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(drawing.count).toBe(2);

    drawing.held!.release();
    await waitFor(() => expect(page().dataset.answers).toBe('{"name":"Dana"}'));
    // "Dan" was never drawn: the drawing after the slow one took the newest answers.
    expect(drawing.count).toBe(3);
  });

  it('View full screen opens the preview in a dialog with zoom; its close button and Escape close it', async () => {
    const user = userEvent.setup();
    render(<PdfPreview template={template} values={{ name: 'Dana' }} title="Motor vehicle record request" />);
    await waitFor(() => expect(page()).toBeInTheDocument());
    const open = screen.getByRole('button', { name: 'View full screen' });

    await user.click(open);
    const dialog = await screen.findByRole('dialog', { name: 'Preview: Motor vehicle record request' });
    await waitFor(() => expect(page(dialog).dataset.answers).toBe('{"name":"Dana"}'));
    const drawnAt = page(dialog).style.width;
    expect(within(dialog).getByText('100%')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Zoom out' })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Zoom in' }));
    expect(within(dialog).getByText('150%')).toBeInTheDocument();
    await waitFor(() => expect(page(dialog).style.width).not.toBe(drawnAt));
    expect(parseFloat(page(dialog).style.width)).toBeCloseTo(parseFloat(drawnAt) * 1.5);

    await user.click(within(dialog).getByRole('button', { name: 'Close the preview' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(open).toHaveFocus();

    await user.click(open);
    await screen.findByRole('dialog');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(open).toHaveFocus();
  });
});
