import type { PointGroup } from 'signature_pad';
import { describe, expect, it } from 'vitest';
import { fitDrawing, placeDrawing, type Size } from '../signature-pad';

const phone: Size = { width: 340, height: 160 };
const landscape: Size = { width: 720, height: 160 };
const narrow: Size = { width: 170, height: 160 };

describe('fitDrawing', () => {
  it.each([
    ['the same size', phone, phone, { scale: 1, x: 0, y: 0 }],
    ['a wider canvas: same size, centred across', phone, landscape, { scale: 1, x: 190, y: 0 }],
    ['a narrower canvas: scaled to fit, centred down', phone, narrow, { scale: 0.5, x: 0, y: 40 }],
    ['nothing drawn yet', { width: 0, height: 0 }, phone, { scale: 1, x: 0, y: 0 }],
  ])('%s', (_, from, to, want) => {
    expect(fitDrawing(from, to)).toEqual(want);
  });
});

describe('placeDrawing', () => {
  const strokes: PointGroup[] = [
    {
      points: [
        { x: 20, y: 80, pressure: 0.5, time: 1 },
        { x: 300, y: 100, pressure: 0.5, time: 2 },
      ],
      dotSize: 0,
      minWidth: 0.5,
      maxWidth: 2.5,
      penColor: 'black',
      velocityFilterWeight: 0.7,
      compositeOperation: 'source-over',
    },
  ];
  const xy = (s: PointGroup[]) => s[0].points.map((p) => [p.x, p.y]);

  it('places the points scaled and centred on the new canvas', () => {
    expect(xy(placeDrawing(strokes, phone, narrow))).toEqual([
      [10, 80],
      [150, 90],
    ]);
  });

  it('gives back the drawing as it was made at the size it was made, after any sizes in between', () => {
    // Each resize draws from the drawing as made, never from the last one shown.
    for (const size of [narrow, landscape, narrow, { width: 1280, height: 160 }, { width: 800, height: 160 }])
      placeDrawing(strokes, phone, size);
    expect(xy(placeDrawing(strokes, phone, phone))).toEqual(xy(strokes));
    expect(placeDrawing(strokes, phone, narrow)[0].points[0].pressure).toBe(0.5);
  });
});
