// A history's look-back period as a bar: the months covered, the gaps no entry
// covers and the overlaps counted twice, each in proportion to its length. The
// bar is a picture only; the list under it says the same in words, in order,
// for everyone (screen readers read it), and each gap has a real button that
// adds an entry for exactly its months. Updates as the dates are typed.
import { addMessages, t } from '@/lib/i18n';
import { Button } from '@/components/ui/button';
import { coverageOf, type Period, type Segment, type SegmentKind } from '@/lib/coverage';
import { monthShortName } from '@/lib/months';
import messages from '@/locales/en-US/timeline.json';
import styles from './coverage-bar.module.css';

addMessages('timeline', messages);

export type CoverageBarProps = {
  /** The entries' months (from lib/coverage: today's month for one still current). */
  periods: Period[];
  /** The first and the last month of the look-back period (today's month). */
  start: number;
  end: number;
  /** The name of a gap's button: "Add an address for Mar 2021 to Aug 2021". */
  addLabel: (range: string) => string;
  /** Adds an entry for the gap's months; without it (the list is full), gaps have no button. */
  onAddGap?: (gap: Segment) => void;
  /** The id of the n-th gap's button, for an error summary's link to it. */
  gapButtonId?: (n: number) => string;
  /** What an overlap is called on this page; "Overlap" else. */
  overlapLabel?: string;
};

const KIND_CLASS: Record<SegmentKind, string> = {
  covered: styles.covered,
  gap: styles.gap,
  overlap: styles.overlap,
};

export const rangeOf = (s: Pick<Segment, 'from' | 'to'>) =>
  s.from === s.to
    ? monthShortName(s.from)
    : t('timeline.range', { from: monthShortName(s.from), to: monthShortName(s.to) });

const lengthOf = (s: Segment) => {
  const n = s.to - s.from + 1;
  return n === 1 ? t('timeline.oneMonth') : t('timeline.months', { n });
};

export function CoverageBar({ periods, start, end, addLabel, onAddGap, gapButtonId, overlapLabel }: CoverageBarProps) {
  if (!(start <= end)) return null;
  const { segments } = coverageOf(periods, start, end);
  const kindName = (kind: SegmentKind) =>
    kind === 'covered'
      ? t('timeline.covered')
      : kind === 'gap'
        ? t('timeline.gap')
        : (overlapLabel ?? t('timeline.overlap'));
  let gapIndex = 0;
  return (
    <div className={styles.coverage}>
      <div className={styles.bar} aria-hidden="true">
        {segments.map((s) => (
          <span
            key={`${s.kind}-${s.from}`}
            className={`${styles.segment} ${KIND_CLASS[s.kind]}`}
            style={{ flexGrow: s.to - s.from + 1 }}
          />
        ))}
      </div>
      <div className={styles.ends} aria-hidden="true">
        <span>{monthShortName(start)}</span>
        <span>{monthShortName(end)}</span>
      </div>
      <ul
        className={styles.list}
        aria-label={t('timeline.periods', { from: monthShortName(start), to: monthShortName(end) })}
      >
        {segments.map((s) => {
          const range = rangeOf(s);
          const n = s.kind === 'gap' ? gapIndex++ : -1;
          return (
            <li key={`${s.kind}-${s.from}`} className={`${styles.item} ${s.kind === 'covered' ? '' : styles.marked}`}>
              <span className={`${styles.swatch} ${KIND_CLASS[s.kind]}`} aria-hidden="true" />
              <span className={styles.text}>
                {t('timeline.item', { kind: kindName(s.kind), range, length: lengthOf(s) })}
              </span>
              {s.kind === 'gap' && onAddGap ? (
                <Button id={gapButtonId?.(n)} variant="secondary" className={styles.add} onClick={() => onAddGap(s)}>
                  {addLabel(range)}
                </Button>
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
