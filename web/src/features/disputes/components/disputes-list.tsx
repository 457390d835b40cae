// /disputes: each of the applicant's disputes with its state and due date, and the way to open a new
// one; and the "Disputes" card of / (the route composes it), with the open ones. Both follow the
// disputes live.
import '@/features/disputes/lib/messages';
import { Link } from 'react-router';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { LoadFailed } from '@/components/load-failed/load-failed';
import { paths } from '@/config/paths';
import { errorMessageOf } from '@/lib/api-client';
import { longDate } from '@/lib/format-date';
import { t } from '@/lib/i18n';
import { useLiveScreening } from '@/lib/screening-events';
import { disputesQuery, useDisputes, type Dispute } from '../api/disputes';
import { outcomeLabel, partLabel, stateLabel } from '../lib/dispute-schema';
import { daysLeftText } from './dispute-page';
import { useFocusTitle } from '@/lib/focus-title';
import styles from './disputes.module.css';

const TITLE_ID = 'disputes-title';

function useLiveDisputes() {
  const disputes = useDisputes();
  useLiveScreening(['dispute'], [disputesQuery().queryKey]);
  return disputes;
}

/** One dispute as a row: what it is about (a link), its state, and when it is due or was resolved. */
function DisputeRow({ dispute }: { dispute: Dispute }) {
  const state =
    dispute.state === 'resolved' && dispute.outcome
      ? `${stateLabel('resolved')}: ${outcomeLabel(dispute.outcome)}`
      : stateLabel(dispute.state);
  return (
    <li className={styles.row}>
      <Link to={paths.dispute.getHref(dispute.id)} className={styles.rowLink}>
        {t('disputes.list.item', { part: partLabel(dispute.serviceCode, dispute.serviceName) })}
      </Link>
      <span className={styles.badge} data-state={dispute.state}>
        {state}
      </span>
      <span className={styles.muted}>
        {dispute.state === 'resolved' && dispute.resolvedAt
          ? t('disputes.list.resolvedOn', { date: longDate(dispute.resolvedAt) })
          : `${t('disputes.list.due', { date: longDate(dispute.dueAt) })} · ${daysLeftText(dispute.daysLeft)}`}
      </span>
    </li>
  );
}

export function DisputesPage() {
  const disputes = useLiveDisputes();
  useFocusTitle(TITLE_ID);
  const newLink = (
    <Link to={paths.disputeNew.getHref()} className={styles.primaryLink}>
      {t('disputes.list.new')}
    </Link>
  );
  return (
    <div className={styles.page}>
      <PageHeader title={t('disputes.list.title')} titleId={TITLE_ID} description={t('disputes.list.description')} />
      {disputes.isError ? (
        <LoadFailed
          title={t('disputes.list.title')}
          text={t('disputes.list.loadFailed', { reason: errorMessageOf(disputes.error) })}
          retry={disputes.refetch}
        />
      ) : !disputes.data ? (
        <Skeleton lines={3} label={t('disputes.list.loading')} />
      ) : disputes.data.length === 0 ? (
        <EmptyState title={t('disputes.list.empty')} action={newLink}>
          {t('disputes.list.emptyText')}
        </EmptyState>
      ) : (
        <Card className={styles.card}>
          <ul className={styles.rows}>
            {disputes.data.map((d) => (
              <DisputeRow key={d.id} dispute={d} />
            ))}
          </ul>
          <p>{newLink}</p>
        </Card>
      )}
    </div>
  );
}

/** The card of /: the open disputes, each a link, and the way to dispute something. */
export function DisputesCard() {
  const disputes = useLiveDisputes();
  const open = disputes.data?.filter((d) => d.state !== 'resolved') ?? [];
  return (
    <Card aria-labelledby="home-disputes-title" className={styles.card}>
      <h2 id="home-disputes-title" className={styles.heading}>
        {t('disputes.home.title')}
      </h2>
      {disputes.isPending ? <Skeleton lines={2} label={t('disputes.list.loading')} /> : null}
      {open.length > 0 ? (
        <>
          <p className={styles.plain}>
            {open.length === 1 ? t('disputes.home.openOne') : t('disputes.home.open', { count: open.length })}
          </p>
          <ul className={styles.rows}>
            {open.map((d) => (
              <DisputeRow key={d.id} dispute={d} />
            ))}
          </ul>
        </>
      ) : disputes.data ? (
        <p className={styles.plain}>{t('disputes.home.none')}</p>
      ) : null}
      <p className={styles.links}>
        <Link to={paths.disputeNew.getHref()}>{t('disputes.list.new')}</Link>
        {disputes.data && disputes.data.length > 0 ? (
          <Link to={paths.disputes.getHref()}>{t('disputes.home.all')}</Link>
        ) : null}
      </p>
    </Card>
  );
}
