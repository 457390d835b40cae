import { describe, expect, it } from 'vitest';
import type { FieldDefinition } from '@/lib/subject';
import { monthIndex } from '@/lib/months';
import { entryPeriods, gapValues, periodFieldsOf } from '../lib/timeline';

const def = (api: string, type: FieldDefinition['type'], extra: Partial<FieldDefinition> = {}): FieldDefinition => ({
  id: 0,
  api,
  name: api,
  type,
  format: '',
  options: [],
  requiredFlag: false,
  rank: 0,
  reference: '',
  flag: '',
  requiredWhen: null,
  visibleWhen: null,
  ...extra,
});

// As the employment service defines them (internal/servicedefs).
const employment = [
  def('employer_name', 'text'),
  def('start_date', 'date'),
  def('currently_employed', 'checkbox'),
  def('end_date', 'date', { after: 'start_date', visibleWhen: { not: { field: 'currently_employed', equals: true } } }),
];

describe("an employment page's timeline", () => {
  const period = periodFieldsOf(employment)!;
  it('finds the start, the end and the "I currently work here" box in the definition', () => {
    expect([period.start.api, period.end.api, period.current?.api]).toEqual([
      'start_date',
      'end_date',
      'currently_employed',
    ]);
    expect(periodFieldsOf([def('school', 'text')])).toBeNull();
  });

  it("reads each entry's months; a current job runs to today's month", () => {
    const today = monthIndex('2026-11');
    expect(
      entryPeriods(
        [
          { start_date: '2019-03-15', end_date: '2021-02-01', currently_employed: false },
          { start_date: '2021-09-01', end_date: '', currently_employed: true },
          { start_date: '', end_date: '2020-01-01', currently_employed: false },
        ],
        period,
        today,
      ),
    ).toEqual([
      { from: monthIndex('2019-03'), to: monthIndex('2021-02') },
      { from: monthIndex('2021-09'), to: today },
    ]);
  });

  it("fills a gap's entry from the first day of its first month to the last day of its last, never after today", () => {
    expect(gapValues(period, monthIndex('2021-03'), monthIndex('2021-08'), '2026-11-29')).toEqual({
      start_date: '2021-03-01',
      end_date: '2021-08-31',
    });
    expect(gapValues(period, monthIndex('2024-02'), monthIndex('2024-02'), '2026-11-29').end_date).toBe('2024-02-29');
    expect(gapValues(period, monthIndex('2026-10'), monthIndex('2026-11'), '2026-11-29').end_date).toBe('2026-11-29');
  });
});
