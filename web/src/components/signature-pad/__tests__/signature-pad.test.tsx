import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SignaturePad } from '../signature-pad';

type Stroke = { points: { x: number; y: number; pressure: number; time: number }[] };

// A stand-in for signature_pad: jsdom has no canvas. It keeps the points it
// is given, like the real one, and hands them back.
const pads: FakePad[] = [];
class FakePad {
  strokes: Stroke[] = [];
  listeners: Record<string, () => void> = {};
  constructor() {
    pads.push(this);
  }
  addEventListener(type: string, listener: () => void) {
    this.listeners[type] = listener;
  }
  off() {}
  clear() {
    this.strokes = [];
  }
  isEmpty() {
    return this.strokes.length === 0;
  }
  toData() {
    return this.strokes;
  }
  fromData(strokes: Stroke[]) {
    this.strokes = strokes;
  }
  toDataURL() {
    return `data:image/png;base64,${JSON.stringify(this.strokes.map((s) => s.points.map((p) => [p.x, p.y])))}`;
  }
  /** What a person drawing a line does. */
  draw(points: [number, number][]) {
    this.strokes.push({ points: points.map(([x, y], time) => ({ x, y, pressure: 0.5, time })) });
    this.listeners.endStroke?.();
  }
}
vi.mock('signature_pad', () => ({ default: FakePad }));

let canvasWidth = 340;
beforeEach(() => {
  pads.length = 0;
  canvasWidth = 340;
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({
    scale: vi.fn(),
  } as unknown as CanvasRenderingContext2D);
  vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockImplementation(() => canvasWidth);
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(() => 160);
});
afterEach(() => vi.restoreAllMocks());

describe('the signature pad', () => {
  it('says nothing before it is touched', async () => {
    const onChange = vi.fn();
    render(<SignaturePad label="Your signature" onChange={onChange} />);
    await waitFor(() =>
      expect(screen.getByRole('img', { name: /Signature drawing area/ })).toHaveAttribute('data-ready', 'true'),
    );
    expect(onChange).not.toHaveBeenCalled();
  });

  it('keeps a drawing across a resize, scaled to fit the new size and centred, and still hands it on', async () => {
    const onChange = vi.fn();
    render(<SignaturePad label="Your signature" onChange={onChange} />);
    await waitFor(() =>
      expect(screen.getByRole('img', { name: /Signature drawing area/ })).toHaveAttribute('data-ready', 'true'),
    );
    act(() =>
      pads[0].draw([
        [20, 80],
        [200, 60],
        [300, 100],
      ]),
    );
    expect(onChange).toHaveBeenLastCalledWith(expect.stringMatching(/^data:image\/png/));

    // The phone turns: the canvas gets narrower.
    canvasWidth = 170;
    act(() => window.dispatchEvent(new Event('resize')));
    expect(pads[0].toData()[0].points.map((p) => [p.x, p.y])).toEqual([
      [10, 80],
      [100, 70],
      [150, 90],
    ]);
    expect(onChange).not.toHaveBeenCalledWith('');
    expect(onChange).toHaveBeenLastCalledWith(pads[0].toDataURL());

    // A resize that leaves the canvas as it was (the toolbar collapsing) changes nothing.
    onChange.mockClear();
    act(() => window.dispatchEvent(new Event('resize')));
    expect(onChange).not.toHaveBeenCalled();
    expect(pads[0].isEmpty()).toBe(false);
  });

  it('gives back the drawing exactly when the size comes back, after any number of turns', async () => {
    render(<SignaturePad label="Your signature" onChange={vi.fn()} />);
    await waitFor(() =>
      expect(screen.getByRole('img', { name: /Signature drawing area/ })).toHaveAttribute('data-ready', 'true'),
    );
    const drawn: [number, number][] = [
      [20, 80],
      [200, 60],
      [300, 100],
    ];
    act(() => pads[0].draw(drawn));
    for (const width of [170, 340, 170, 700, 340]) {
      canvasWidth = width;
      act(() => window.dispatchEvent(new Event('resize')));
    }
    expect(pads[0].toData()[0].points.map((p) => [p.x, p.y])).toEqual(drawn);
  });

  it('takes a stroke added after a resize, with the rest, as the drawing made at that size; forgets a cleared drawing', async () => {
    render(<SignaturePad label="Your signature" onChange={vi.fn()} />);
    await waitFor(() =>
      expect(screen.getByRole('img', { name: /Signature drawing area/ })).toHaveAttribute('data-ready', 'true'),
    );
    act(() => pads[0].draw([[20, 80]]));
    canvasWidth = 170;
    act(() => window.dispatchEvent(new Event('resize')));
    act(() => pads[0].draw([[100, 100]]));
    canvasWidth = 340;
    act(() => window.dispatchEvent(new Event('resize')));
    // Drawn at 170 px: back at 340 px both strokes keep their size, centred across.
    expect(pads[0].toData().map((s) => s.points.map((p) => [p.x, p.y]))).toEqual([[[95, 80]], [[185, 100]]]);

    act(() => screen.getByRole('button', { name: 'Clear' }).click());
    canvasWidth = 170;
    act(() => window.dispatchEvent(new Event('resize')));
    expect(pads[0].isEmpty()).toBe(true);
  });

  it('moves focus to the control shown after switching between drawing and typing', async () => {
    render(<SignaturePad label="Your signature" onChange={vi.fn()} />);
    await waitFor(() =>
      expect(screen.getByRole('img', { name: /Signature drawing area/ })).toHaveAttribute('data-ready', 'true'),
    );
    // Not on first show: the page decides where focus starts.
    expect(document.body).toHaveFocus();
    act(() => screen.getByRole('button', { name: 'Type your signature instead' }).click());
    expect(screen.getByLabelText('Type your full name as your signature')).toHaveFocus();
    act(() => screen.getByRole('button', { name: 'Draw your signature instead' }).click());
    expect(screen.getByRole('img', { name: /Signature drawing area/ })).toHaveFocus();
  });

  it("takes the focus at once when it appears at the applicant's request", async () => {
    render(<SignaturePad label="Your signature" focusOnMount onChange={vi.fn()} />);
    expect(screen.getByRole('img', { name: /Signature drawing area/ })).toHaveFocus();
  });

  it('starts with an empty typed signature, described by its hint, and hands on nothing until one is typed', async () => {
    const onChange = vi.fn();
    render(<SignaturePad label="Your signature" hint="It goes on this document only." onChange={onChange} />);
    expect(screen.getByRole('group', { name: 'Your signature' })).toHaveAccessibleDescription(
      'It goes on this document only.',
    );
    act(() => screen.getByRole('button', { name: 'Type your signature instead' }).click());
    expect(screen.getByLabelText('Type your full name as your signature')).toHaveValue('');
    expect(onChange).toHaveBeenLastCalledWith('');
  });
});
