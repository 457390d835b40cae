import { describe, expect, it } from 'vitest';
import {
  caretAfterDigits,
  cardBrand,
  cvcLength,
  expiryProblem,
  formatCardNumber,
  formatExpiry,
  luhnValid,
} from '@/features/self-pay/lib/card';
import { idempotencyKeys } from '@/features/self-pay/lib/idempotency';

describe('card numbers', () => {
  it.each([
    ['4242424242424242', '4242 4242 4242 4242', 'Visa'],
    ['5555555555554444', '5555 5555 5555 4444', 'Mastercard'],
    ['2223003122003222', '2223 0031 2200 3222', 'Mastercard'],
    ['378282246310005', '3782 822463 10005', 'Amex'],
    ['3782 8224 6310 0059', '3782 822463 10005', 'Amex'],
    ['6011111111111117', '6011 1111 1111 1117', 'Discover'],
    ['42', '42', 'Visa'],
    ['4242a4', '4242 4', 'Visa'],
    ['9999', '9999', null],
  ])('%j is shown as %j (%s)', (typed, shown, brand) => {
    expect(formatCardNumber(typed)).toBe(shown);
    expect(cardBrand(typed)).toBe(brand);
  });

  it('checks the Luhn digit', () => {
    expect(luhnValid('4242 4242 4242 4242')).toBe(true);
    expect(luhnValid('3782 822463 10005')).toBe(true);
    expect(luhnValid('4000 0000 0000 0002')).toBe(true);
    expect(luhnValid('4242 4242 4242 4241')).toBe(false);
    expect(luhnValid('0000')).toBe(false);
  });

  it('asks 4 security digits of an Amex, 3 of the others', () => {
    expect(cvcLength('3782')).toBe(4);
    expect(cvcLength('4242')).toBe(3);
  });

  it('keeps the caret after the same digits once regrouped', () => {
    expect(caretAfterDigits('4242 4242 4', 5)).toBe(6);
    expect(caretAfterDigits('4242 4242 4', 4)).toBe(4);
    expect(caretAfterDigits('4242', 0)).toBe(0);
  });
});

describe('expiry', () => {
  it.each([
    ['1', false, '1'],
    ['12', false, '12/'],
    ['12', true, '12'],
    ['123', false, '12/3'],
    ['12/34', false, '12/34'],
    ['4', false, '04/'],
    ['12345', false, '12/34'],
  ])('%j (deleting %s) is shown as %j', (typed, deleting, shown) => {
    expect(formatExpiry(typed, deleting)).toBe(shown);
  });

  const now = new Date(2026, 5, 15); // June 2026
  it.each([
    ['', 'required'],
    ['1/2', 'invalid'],
    ['13/27', 'invalid'],
    ['00/27', 'invalid'],
    ['05/26', 'past'],
    ['12/25', 'past'],
    ['06/26', null],
    ['01/27', null],
  ])('%j: %s', (value, problem) => {
    expect(expiryProblem(value, now)).toBe(problem);
  });
});

describe('idempotency keys', () => {
  it('keeps the key while the details are the same and makes a new one when they change', () => {
    let n = 0;
    const keyFor = idempotencyKeys(() => `key-${++n}`);
    const card = { cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' };
    expect(keyFor(card)).toBe('key-1');
    expect(keyFor({ ...card })).toBe('key-1');
    expect(keyFor({ ...card, cardNumber: '5555 5555 5555 4444' })).toBe('key-2');
    expect(keyFor({ ...card })).toBe('key-3');
  });
});
