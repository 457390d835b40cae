// The waiting period in the applicant's words, from the server's count of business days left.
import './messages';
import { t } from '@/lib/i18n';
import { currentLocale } from '@/lib/locale';

/** "2026-12-03" as "Thursday, December 3, 2026" (a calendar day: no time zone moves it). */
export function noticeDate(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  const value = new Date(Date.UTC(year, month - 1, date));
  return Number.isNaN(value.getTime())
    ? day
    : value.toLocaleDateString(currentLocale(), { dateStyle: 'full', timeZone: 'UTC' });
}

/** "3 business days left: until Thursday, December 3, 2026", or that the period has ended. */
export function waitingPeriodText(businessDaysLeft: number, endsOn: string): string {
  if (businessDaysLeft <= 0) return t('adverse.countdown.ended');
  const date = noticeDate(endsOn);
  return businessDaysLeft === 1
    ? t('adverse.countdown.one', { date })
    : t('adverse.countdown.many', { count: businessDaysLeft, date });
}
