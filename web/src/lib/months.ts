// Months as the contract writes them ("YYYY-MM"), counted as whole numbers so
// that periods compare and subtract without dates and time zones. Their names follow the chosen language.
import { currentLocale } from './locale';

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
// As the server (portal.EarliestYear): earlier years are typing mistakes ("0202-05").
const EARLIEST_YEAR = 1900;

/** "2020-03" as a month count (year * 12 + month - 1); NaN when not a month from 1900 on. */
export function monthIndex(value: string): number {
  const match = MONTH.exec(value.trim());
  if (!match || Number(match[1]) < EARLIEST_YEAR) return NaN;
  return Number(match[1]) * 12 + Number(match[2]) - 1;
}

export const isMonth = (value: string) => !Number.isNaN(monthIndex(value));

export function monthOf(index: number): string {
  const year = Math.floor(index / 12);
  return `${String(year).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** A month count as the first day of that month, in UTC so no time zone moves it to the month before. */
function dayOfMonth(value: string | number): Date {
  const index = typeof value === 'number' ? value : monthIndex(value);
  return new Date(Date.UTC(Math.floor(index / 12), index % 12, 1));
}

/** "2020-03" (or its count) -> "March 2020" ("marzo de 2020"), as a sentence says it. */
export function monthName(value: string | number): string {
  return dayOfMonth(value).toLocaleDateString(currentLocale(), { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** "2020-03" (or its count) -> "Mar 2020" ("mar 2020"), where space is short (a coverage bar's periods). */
export function monthShortName(value: string | number): string {
  return dayOfMonth(value).toLocaleDateString(currentLocale(), { month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/** The month of a day, in the applicant's own calendar. */
export const monthOfDate = (day: Date) => day.getFullYear() * 12 + day.getMonth();

/** The first month the history must cover: today's month, requiredYears back (the server answers it as coverageStart). */
export const coverageStartOf = (today: Date, requiredYears: number) => monthOf(monthOfDate(today) - requiredYears * 12);
