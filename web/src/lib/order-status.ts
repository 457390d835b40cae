// An order's status in the applicant's words. Its area of the catalogue ("status") loads with the
// pages that show orders, not with /login (lib/i18n.ts).
import { addMessages, t, type MessageKey } from './i18n';
import messages from '@/locales/en-US/status.json';

addMessages('status', messages);

const orderStatusKeys: Record<number, MessageKey> = {
  0: 'status.order.0',
  1: 'status.order.1',
  2: 'status.order.2',
  3: 'status.order.3',
  4: 'status.order.4',
  5: 'status.order.5',
  6: 'status.order.6',
  7: 'status.order.7',
};

/**
 * An order's status in the applicant's words: the server's statusText ("Setup Complete", "Finalization
 * Complete") names a step of the process, not what it means for them. Unknown ids say nothing.
 */
export function orderStatusPhrase(statusId: number | null | undefined): string {
  const key = statusId != null ? orderStatusKeys[statusId] : undefined;
  return key ? t(key) : '';
}
