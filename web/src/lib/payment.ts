// The self-pay hold as the server answers it (GET /api/v2/payment): what is owed and the hold
// already placed, if any. /self-pay takes it, /collection-site asks whether it is placed, and the
// final page shows its receipt. Only the processor's authorization id, the card's last four digits
// and brand are ever kept.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';
import { currentLocale } from './locale';

export type PaymentAuthorization = {
  id: string;
  /** "25.00" */
  amount: string;
  currency: string;
  last4: string;
  brand: string;
  authorizedAt: string;
};

export type PaymentState = {
  required: boolean;
  /** "25.00" */
  amount: string;
  currency: string;
  /** The residency state that forbids charging the applicant; then nothing is required. */
  exemptState: string | null;
  authorization: PaymentAuthorization | null;
};

export const paymentQuery = () =>
  queryOptions({ queryKey: ['payment'], queryFn: () => api.get<PaymentState>('api/v2/payment') });

export const usePayment = () => useQuery(paymentQuery());

/**
 * Whether the hold is already placed. A failure counts as not paid: the status move that follows
 * is checked by the server, which refuses (409, shown on the page) a move to self-pay when the hold
 * is in fact placed, so nobody is asked twice.
 */
export async function paymentAlreadyAuthorized(): Promise<boolean> {
  try {
    return (await api.get<PaymentState>('api/v2/payment')).authorization != null;
  } catch {
    return false;
  }
}

/** "$25.00": the amount as its currency writes it. */
export function formatAmount(amount: string, currency = 'USD'): string {
  const value = Number(amount);
  if (!Number.isFinite(value)) return amount;
  try {
    return new Intl.NumberFormat(currentLocale(), { style: 'currency', currency: currency || 'USD' }).format(value);
  } catch {
    return new Intl.NumberFormat(currentLocale(), { style: 'currency', currency: 'USD' }).format(value);
  }
}
