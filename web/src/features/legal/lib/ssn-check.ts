// The SSN check of spec section 5: the last four digits the applicant types
// while signing must be the last four of the SSN on file.
import '@/features/legal/lib/messages';
import { raiseSsnMismatch } from '@/lib/app-events';
import { t } from '@/lib/i18n';

/** A function: made at import, the message would be English before the catalogue loads (lib/i18n.ts). */
export const ssnMismatchMessage = () => t('legal.ssn.mismatch');

function lastFour(ssn: string | null | undefined): string {
  return (ssn ?? '').replace(/\D/g, '').slice(-4);
}

/** True when valid; a mismatch raises the ssn-mismatch event on window. */
export function checkLastFourSSN(
  entered: string | null | undefined,
  storedLastFour: string | null | undefined,
): boolean {
  if ((entered ?? '').trim() === lastFour(storedLastFour)) return true;
  raiseSsnMismatch(ssnMismatchMessage());
  return false;
}
