import { describe, expect, it } from 'vitest';
import { coverageOf, type Period } from '../coverage';
import { monthIndex } from '../months';

const m = monthIndex;
const seg = (kind: string, from: string, to: string) => ({ kind, from: m(from), to: m(to) });

describe('the coverage of a look-back period', () => {
  const start = m('2019-01');
  const end = m('2019-12');
  it.each<[string, Period[], ReturnType<typeof seg>[]]>([
    ['nothing typed: one gap over the whole period', [], [seg('gap', '2019-01', '2019-12')]],
    [
      'a gap between two entries, its months exactly',
      [
        { from: m('2018-06'), to: m('2019-02') },
        { from: m('2019-09'), to: m('2019-12') },
      ],
      [seg('covered', '2019-01', '2019-02'), seg('gap', '2019-03', '2019-08'), seg('covered', '2019-09', '2019-12')],
    ],
    [
      'a move within a month is no overlap',
      [
        { from: m('2019-01'), to: m('2019-06') },
        { from: m('2019-06'), to: m('2019-12') },
      ],
      [seg('covered', '2019-01', '2019-12')],
    ],
    [
      'months counted twice are an overlap',
      [
        { from: m('2019-01'), to: m('2019-08') },
        { from: m('2019-05'), to: m('2019-12') },
      ],
      [
        seg('covered', '2019-01', '2019-04'),
        seg('overlap', '2019-05', '2019-08'),
        seg('covered', '2019-09', '2019-12'),
      ],
    ],
    [
      'a one-month stay inside another entry overlaps it',
      [
        { from: m('2019-01'), to: m('2019-12') },
        { from: m('2019-04'), to: m('2019-04') },
      ],
      [
        seg('covered', '2019-01', '2019-03'),
        seg('overlap', '2019-04', '2019-04'),
        seg('covered', '2019-05', '2019-12'),
      ],
    ],
    [
      'an open-ended current entry runs to the last month',
      [{ from: m('2019-07'), to: end }],
      [seg('gap', '2019-01', '2019-06'), seg('covered', '2019-07', '2019-12')],
    ],
    [
      'the months at the edges: an entry starting before the period and one reaching past it count inside it only',
      [
        { from: m('2015-01'), to: m('2019-01') },
        { from: m('2019-12'), to: m('2021-01') },
      ],
      [seg('covered', '2019-01', '2019-01'), seg('gap', '2019-02', '2019-11'), seg('covered', '2019-12', '2019-12')],
    ],
    [
      'an entry wholly before the period and one ending before it starts count for nothing',
      [
        { from: m('2010-01'), to: m('2012-01') },
        { from: m('2019-08'), to: m('2019-03') },
        { from: NaN, to: m('2019-05') },
      ],
      [seg('gap', '2019-01', '2019-12')],
    ],
  ])('%s', (_, periods, segments) => {
    const coverage = coverageOf(periods, start, end);
    expect(coverage.segments).toEqual(segments);
    expect(coverage.gaps).toEqual(segments.filter((s) => s.kind === 'gap'));
    expect(coverage.overlaps).toEqual(segments.filter((s) => s.kind === 'overlap'));
  });
});
