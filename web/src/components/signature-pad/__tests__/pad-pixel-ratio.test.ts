import { describe, expect, it } from 'vitest';
import { padPixelRatio } from '../signature-pad';

describe('padPixelRatio', () => {
  it.each([
    [0, 1],
    [1, 1],
    [2, 2],
    [2.75, 2.75],
    [3, 3],
    [3.75, 3],
    [6, 3],
  ])('draws a screen of ratio %s at %s', (dpr, want) => {
    expect(padPixelRatio(dpr)).toBe(want);
  });

  it('keeps the largest pad within the server limits (2400 x 900, 1.5 million pixels)', () => {
    const ratio = padPixelRatio(10);
    const [width, height] = [770 * ratio, 160 * ratio];
    expect(width).toBeLessThanOrEqual(2400);
    expect(height).toBeLessThanOrEqual(900);
    expect(width * height).toBeLessThanOrEqual(1_500_000);
  });
});
