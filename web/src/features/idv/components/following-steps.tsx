// What still follows identity verification for this applicant, as the server decided it: a
// collection site, a payment, both or nothing. /idv says it before, /idv/success after.
import '@/features/idv/lib/messages';
import { t } from '@/lib/i18n';
import { formatAmount } from '@/lib/payment';
import styles from './idv.module.css';

type FollowingStepsProps = {
  site: boolean;
  payment: boolean;
  /** The hold, "25.00"; without it the payment is named without its amount. */
  amount?: string;
  /** Said when nothing follows. */
  whenNone: string;
};

export function FollowingSteps({ site, payment, amount, whenNone }: FollowingStepsProps) {
  if (!site && !payment) return <p className={styles.text}>{whenNone}</p>;
  const hold = amount && Number(amount) > 0 ? formatAmount(amount) : '';
  return (
    <ol className={styles.following}>
      {site ? <li>{t('idv.next.site')}</li> : null}
      {payment ? <li>{hold ? t('idv.next.payment', { amount: hold }) : t('idv.next.paymentNoAmount')}</li> : null}
      <li>{t('idv.next.done')}</li>
    </ol>
  );
}
