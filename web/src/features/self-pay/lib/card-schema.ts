// The card form's schema. The messages come before a round trip; the processor decides.
import '@/features/self-pay/lib/messages';
import { z } from 'zod/mini';
import { t } from '@/lib/i18n';
import { cvcLength, digitsOf, expiryProblem, luhnValid } from './card';

export type CardValues = {
  cardNumber: string;
  expiry: string;
  cvc: string;
  cardholderName: string;
  postalCode: string;
};

export const emptyCard: CardValues = { cardNumber: '', expiry: '', cvc: '', cardholderName: '', postalCode: '' };

const expiryMessages = {
  required: 'payment.error.expiryRequired',
  invalid: 'payment.error.expiryInvalid',
  past: 'payment.error.expiryPast',
} as const;

/** `now` is read at each check, so a form left open past midnight on the 1st still knows. */
export function cardSchema(now: () => Date = () => new Date()) {
  return z
    .object({
      cardNumber: z.string(),
      expiry: z.string(),
      cvc: z.string(),
      cardholderName: z.string(),
      postalCode: z.string(),
    })
    .check(
      z.superRefine((value, ctx) => {
        const issue = (path: keyof CardValues, message: string) =>
          ctx.issues.push({ code: 'custom', path: [path], message, input: '' });

        if (!digitsOf(value.cardNumber)) issue('cardNumber', t('payment.error.cardNumberRequired'));
        else if (!luhnValid(value.cardNumber)) issue('cardNumber', t('payment.error.cardNumberInvalid'));

        const expiry = expiryProblem(value.expiry, now());
        if (expiry) issue('expiry', t(expiryMessages[expiry]));

        const digits = cvcLength(value.cardNumber);
        if (!value.cvc.trim()) issue('cvc', t('payment.error.cvcRequired'));
        else if (!new RegExp(`^\\d{${digits}}$`).test(value.cvc.trim()))
          issue('cvc', t('payment.error.cvcInvalid', { digits }));

        if (!value.cardholderName.trim()) issue('cardholderName', t('payment.error.nameRequired'));
        if (!/^\d{5}$/.test(value.postalCode.trim())) issue('postalCode', t('payment.error.postalCodeInvalid'));
      }),
    );
}
