// Dates as the app writes them for a day something happened: "November 22, 2026".

/** An instant (ISO 8601) as "November 22, 2026"; '' for one that cannot be read. */
export function longDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleDateString('en-US', { dateStyle: 'long' });
}
