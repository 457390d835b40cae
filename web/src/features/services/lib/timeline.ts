// The months each entry of a service page spans, for the coverage bar of
// /employment: found in the service's definition (a date or month field that
// must come after another is the end, that other the start; a checkbox that
// hides the end is "still here"), so no field name is assumed.
import type { FieldDefinition, ServiceEntry } from '@/lib/subject';
import type { Period } from '@/lib/coverage';
import { isVisible } from '@/lib/field-rules';
import { monthIndex, monthOf } from '@/lib/months';

export type PeriodFields = { start: FieldDefinition; end: FieldDefinition; current?: FieldDefinition };

const isDate = (f: FieldDefinition) => f.type === 'date' || f.type === 'month';

export function periodFieldsOf(fields: FieldDefinition[]): PeriodFields | null {
  const end = fields.find((f) => isDate(f) && f.after);
  const start = end && fields.find((f) => f.api === end.after && isDate(f));
  if (!end || !start) return null;
  const current = fields.find((f) => f.type === 'checkbox' && !isVisible(end, { [f.api]: true }));
  return { start, end, current };
}

/** "2021-03" or "2021-03-15" as a month count; NaN otherwise. */
const monthOfValue = (value: unknown) => (typeof value === 'string' ? monthIndex(value.trim().slice(0, 7)) : NaN);

/** Each entry's months; a current one runs to today's month. Entries without a start (or an end) count for nothing. */
export function entryPeriods(entries: ServiceEntry[], period: PeriodFields, today: number): Period[] {
  return entries.flatMap((e) => {
    const from = monthOfValue(e[period.start.api]);
    const to = period.current && e[period.current.api] === true ? today : monthOfValue(e[period.end.api]);
    return Number.isNaN(from) || Number.isNaN(to) || to < from ? [] : [{ from, to }];
  });
}

const lastDay = (month: number) => new Date(Math.floor(month / 12), (month % 12) + 1, 0).getDate();

/**
 * The start and end values of a new entry for a gap's months, in the fields' own pattern: a month as
 * "YYYY-MM"; a date from the first day of the first month to the last day of the last (today at most).
 */
export function gapValues(period: PeriodFields, from: number, to: number, today: string): ServiceEntry {
  const value = (field: FieldDefinition, month: number, first: boolean) => {
    if (field.type === 'month') return monthOf(month);
    const day = `${monthOf(month)}-${String(first ? 1 : lastDay(month)).padStart(2, '0')}`;
    return !first && day > today ? today : day;
  };
  return { [period.start.api]: value(period.start, from, true), [period.end.api]: value(period.end, to, false) };
}
