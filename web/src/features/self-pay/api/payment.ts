// The self-pay hold (contract of issue 12): POST asks the processor for the hold (what is owed
// and the hold placed come from lib/payment.ts). The card number and security code
// go to the server once, in that request, and nowhere else (no cache, no storage).
import { api } from '@/lib/api-client';
import type { PaymentAuthorization } from '@/lib/payment';
import type { CardValues } from '../lib/card-schema';

export type AuthorizeRequest = CardValues & { idempotencyKey: string };

export function authorizePayment(request: AuthorizeRequest) {
  return api.post<{ message: string; authorization: PaymentAuthorization }>('api/v2/payment/auth', request);
}
