import { describe, expect, it } from 'vitest';
import { noticeDate, waitingPeriodText } from '../lib/countdown';

describe('waitingPeriodText', () => {
  it.each([
    [5, '2026-12-03', '5 business days left: until Thursday, December 3, 2026'],
    [3, '2026-12-03', '3 business days left: until Thursday, December 3, 2026'],
    [1, '2026-12-03', '1 business day left: until the end of Thursday, December 3, 2026'],
    [0, '2026-12-03', 'The waiting period has ended'],
  ])('%i days left until %s', (left, endsOn, want) => {
    expect(waitingPeriodText(left, endsOn)).toBe(want);
  });

  it('reads the day as a calendar day, whatever the time zone', () => {
    expect(noticeDate('2027-01-04')).toBe('Monday, January 4, 2027');
  });
});
