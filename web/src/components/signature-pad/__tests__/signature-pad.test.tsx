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
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({ scale: vi.fn() } as unknown as CanvasRenderingContext2D);
  vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockImplementation(() => canvasWidth);
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(() => 160);
});
afterEach(() => vi.restoreAllMocks());

describe('the signature pad', () => {
  it('says nothing before it is touched', async () => {
    const onChange = vi.fn();
    render(<SignaturePad label="Your signature" onChange={onChange} />);
    await waitFor(() => expect(screen.getByRole('img', { name: /Signature drawing area/ })).toHaveAttribute('data-ready', 'true'));
    expect(onChange).not.toHaveBeenCalled();
  });

  it('keeps a drawing across a resize, scaled to the new width, and still hands it on', async () => {
    const onChange = vi.fn();
    render(<SignaturePad label="Your signature" onChange={onChange} />);
    await waitFor(() => expect(screen.getByRole('img', { name: /Signature drawing area/ })).toHaveAttribute('data-ready', 'true'));
    act(() => pads[0].draw([[20, 80], [200, 60], [300, 100]]));
    expect(onChange).toHaveBeenLastCalledWith(expect.stringMatching(/^data:image\/png/));

    // The phone turns: the canvas gets narrower.
    canvasWidth = 170;
    act(() => window.dispatchEvent(new Event('resize')));
    expect(pads[0].toData()[0].points.map((p) => [p.x, p.y])).toEqual([[10, 40], [100, 30], [150, 50]]);
    expect(onChange).not.toHaveBeenCalledWith('');
    expect(onChange).toHaveBeenLastCalledWith(pads[0].toDataURL());

    // A resize that leaves the canvas as it was (the toolbar collapsing) changes nothing.
    onChange.mockClear();
    act(() => window.dispatchEvent(new Event('resize')));
    expect(onChange).not.toHaveBeenCalled();
    expect(pads[0].isEmpty()).toBe(false);
  });
});
