import { afterEach, describe, expect, it } from 'vitest';
import { dayDate } from '@/lib/format-date';
import { setLocaleCookie, type Locale } from '@/lib/locale';
import { monthName, monthShortName } from '@/lib/months';
import { formatAmount } from '@/lib/payment';

afterEach(() => setLocaleCookie('en-US'));

describe('dates, amounts and months in the chosen language', () => {
  it.each<{ locale: Locale; day: string; amount: string; month: string; short: string }>([
    { locale: 'en-US', day: 'December 3, 2026', amount: '$1,250.50', month: 'March 2020', short: 'Mar 2020' },
    { locale: 'es-US', day: '3 de diciembre de 2026', amount: '$1,250.50', month: 'marzo de 2020', short: 'mar 2020' },
  ])('writes them as $locale does', ({ locale, day, amount, month, short }) => {
    setLocaleCookie(locale);
    expect(dayDate('2026-12-03')).toBe(day);
    expect(formatAmount('1250.5')).toBe(amount);
    expect(monthName('2020-03')).toBe(month);
    expect(monthShortName('2020-03')).toBe(short);
  });
});
