// How a history (addresses, employers) covers its look-back period, month by
// month: the months covered once, the gaps no entry covers and the overlaps
// counted twice, in order, for the coverage bar (components/coverage-bar) and
// its text. Months are counts (lib/months.ts), both ends included.

/** One entry's months: from and to included; `to` is today's month for an entry still current. */
export type Period = { from: number; to: number };

export type SegmentKind = 'covered' | 'gap' | 'overlap';
export type Segment = { kind: SegmentKind; from: number; to: number };

export type Coverage = { segments: Segment[]; gaps: Segment[]; overlaps: Segment[] };

/**
 * Two periods share month m without overlapping when one ends in it and the other starts in it (a
 * move or a new job within the month), as the address rules count it.
 */
function overlapAt(m: number, a: Period, b: Period): boolean {
  return !((m === a.to && m === b.from) || (m === b.to && m === a.from));
}

/**
 * The months from `start` to `end` (included), each covered, a gap or an overlap, merged into runs.
 * Periods reaching outside the window count only for their months inside it; a period that ends
 * before it starts (to < from) states nothing and is left out.
 */
export function coverageOf(periods: Period[], start: number, end: number): Coverage {
  const valid = periods.filter((p) => Number.isFinite(p.from) && Number.isFinite(p.to) && p.from <= p.to);
  const segments: Segment[] = [];
  for (let m = start; m <= end; m++) {
    const here = valid.filter((p) => p.from <= m && m <= p.to);
    let kind: SegmentKind = here.length === 0 ? 'gap' : 'covered';
    for (let i = 0; i < here.length && kind === 'covered'; i++) {
      for (let j = i + 1; j < here.length; j++) {
        if (overlapAt(m, here[i], here[j])) {
          kind = 'overlap';
          break;
        }
      }
    }
    const last = segments[segments.length - 1];
    if (last && last.kind === kind && last.to === m - 1) last.to = m;
    else segments.push({ kind, from: m, to: m });
  }
  return {
    segments,
    gaps: segments.filter((s) => s.kind === 'gap'),
    overlaps: segments.filter((s) => s.kind === 'overlap'),
  };
}
