// Dates as the app writes them for a day something happened, in the chosen language: "November 22, 2026", "22 de noviembre de 2026".
import { currentLocale } from './locale';

/** An instant (ISO 8601) as "November 22, 2026"; '' for one that cannot be read. */
export function longDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleDateString(currentLocale(), { dateStyle: 'long' });
}

/** A calendar day (YYYY-MM-DD, as the server sends estimates) as "December 3, 2026", whatever the time zone. */
export function dayDate(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleDateString(currentLocale(), { dateStyle: 'long', timeZone: 'UTC' });
}
