import { describe, expect, it, vi } from 'vitest';
import { SSN_MISMATCH_EVENT } from '@/lib/app-events';
import { checkLastFourSSN } from '../lib/ssn-check';

describe('the SSN check', () => {
  it.each([
    ['matching last four', '6789', '6789', true],
    ['last four of a full stored SSN', '6789', '123-45-6789', true],
    ['both empty', '', '', true],
    ['mismatch', '1234', '6789', false],
    ['entered but nothing stored', '1234', '', false],
    ['stored but nothing entered', '', '6789', false],
  ])('%s', (_name, entered, stored, want) => {
    const listener = vi.fn();
    window.addEventListener(SSN_MISMATCH_EVENT, listener);
    expect(checkLastFourSSN(entered, stored)).toBe(want);
    expect(listener).toHaveBeenCalledTimes(want ? 0 : 1);
    window.removeEventListener(SSN_MISMATCH_EVENT, listener);
  });
});
