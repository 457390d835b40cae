// What the card form knows about card numbers before the processor does: the brand from the
// first digits, the grouping people read on the card (Amex 4-6-5, others by 4), the Luhn
// check digit, and the expiry date. The processor checks it all again.

export type CardBrand = 'Visa' | 'Mastercard' | 'Amex' | 'Discover';

const brandNames: Record<CardBrand, string> = {
  Visa: 'Visa',
  Mastercard: 'Mastercard',
  Amex: 'American Express',
  Discover: 'Discover',
};

export const digitsOf = (value: string) => value.replace(/\D/g, '');

export function cardBrand(value: string): CardBrand | null {
  const digits = digitsOf(value);
  if (/^3[47]/.test(digits)) return 'Amex';
  if (/^4/.test(digits)) return 'Visa';
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(digits)) return 'Mastercard';
  if (/^(6011|65|64[4-9])/.test(digits)) return 'Discover';
  return null;
}

/** The brand as people know it ("American Express"). */
export const brandName = (brand: CardBrand) => brandNames[brand];

/** Amex has 15 digits; the rest up to 19. */
export function maxCardDigits(value: string): number {
  return cardBrand(value) === 'Amex' ? 15 : 19;
}

/** "378282246310005" as "3782 822463 10005"; others in groups of 4. */
export function formatCardNumber(value: string): string {
  const digits = digitsOf(value).slice(0, maxCardDigits(value));
  if (cardBrand(digits) === 'Amex') {
    return [digits.slice(0, 4), digits.slice(4, 10), digits.slice(10, 15)].filter(Boolean).join(' ');
  }
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** The Luhn check digit is right (catches a mistyped digit and most swapped pairs). */
export function luhnValid(value: string): boolean {
  const digits = digitsOf(value);
  if (digits.length < 12 || digits.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The security code's length: 4 on the front of an Amex, 3 on the back of the others. */
export function cvcLength(cardNumber: string): 3 | 4 {
  return cardBrand(cardNumber) === 'Amex' ? 4 : 3;
}

/**
 * MM/YY as typed: the slash comes by itself after the month (not while deleting), and a
 * first digit above 1 is a month of its own ("4" is "04/").
 */
export function formatExpiry(value: string, deleting = false): string {
  let digits = digitsOf(value).slice(0, 4);
  if (/^[2-9]$/.test(digits)) digits = `0${digits}`;
  if (digits.length > 2) return `${digits.slice(0, 2)}/${digits.slice(2)}`;
  if (digits.length === 2 && !deleting) return `${digits}/`;
  return digits;
}

export type ExpiryProblem = 'required' | 'invalid' | 'past';

/** A card is valid through the last day of its expiry month. */
export function expiryProblem(value: string, now = new Date()): ExpiryProblem | null {
  if (!value.trim()) return 'required';
  const match = /^(\d{2})\s*\/\s*(\d{2})$/.exec(value.trim());
  if (!match) return 'invalid';
  const month = Number(match[1]);
  if (month < 1 || month > 12) return 'invalid';
  const year = 2000 + Number(match[2]);
  const thisYear = now.getFullYear();
  const thisMonth = now.getMonth() + 1;
  if (year < thisYear || (year === thisYear && month < thisMonth)) return 'past';
  return null;
}

/**
 * Where the caret belongs after reformatting: after as many digits as were before it, so
 * editing in the middle of a number does not throw the caret to the end.
 */
export function caretAfterDigits(formatted: string, digitsBefore: number): number {
  if (digitsBefore === 0) return 0;
  let seen = 0;
  for (let i = 0; i < formatted.length; i++) {
    if (/\d/.test(formatted[i])) seen++;
    if (seen === digitsBefore) return i + 1;
  }
  return formatted.length;
}
