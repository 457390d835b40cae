// Home's card of an adverse-action notice (the route puts it at the top of /): that the employer may
// decide, or has decided, because of the report, the waiting period left, and the way to the notice.
// Nothing while there is none; it arrives live when an operator sends one.
import '../lib/messages';
import { Link } from 'react-router';
import { Card } from '@/components/ui/card';
import buttonStyles from '@/components/ui/button.module.css';
import { paths } from '@/config/paths';
import { t } from '@/lib/i18n';
import { useAdverseAction } from '../api/get-adverse-action';
import { waitingPeriodText } from '../lib/countdown';
import styles from './adverse-action.module.css';

export function AdverseActionCard() {
  const notice = useAdverseAction();
  const a = notice.data;
  // A notice that cannot be read shows on its own page; home stays about the screening.
  if (!a) return null;
  const company = a.companyName;
  const final = a.state === 'final';
  return (
    <Card aria-labelledby="home-adverse-title" className={final ? styles.decided : styles.urgent}>
      <h2 id="home-adverse-title" className={styles.heading}>
        {final ? t('adverse.card.finalTitle', { company }) : t('adverse.card.preTitle', { company })}
      </h2>
      <p className={styles.plain}>{final ? t('adverse.card.finalText') : t('adverse.card.preText', { company })}</p>
      {final ? null : <p className={styles.countdown}>{waitingPeriodText(a.businessDaysLeft, a.endsOn)}</p>}
      <div className={styles.actions}>
        <Link className={`${buttonStyles.button} ${buttonStyles.primary}`} to={paths.adverseAction.getHref()}>
          {t('adverse.card.open')}
        </Link>
      </div>
    </Card>
  );
}
