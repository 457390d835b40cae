import { currentLocale } from '@/lib/locale';

/** A timestamp of the API as the applicant reads it ("November 22, 2026"); the raw text if it is not one. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString(currentLocale(), { dateStyle: 'long' });
}
