// The services of the applicant's orders, live: the stream's `services` events (a service, the order
// or the profile status moved) read the profile and the orders again, so a change shows without a
// reload. OrderServices serves the hub (/profile), one order at a time; ScreeningServices serves /,
// with what happens next and when.
import '@/features/screening/lib/messages';
import { Skeleton } from '@/components/ui/skeleton';
import { t } from '@/lib/i18n';
import { dayDate } from '@/lib/format-date';
import { useScreeningProfile } from '@/lib/profile';
import { useLiveScreening } from '@/lib/screening-events';
import { useAllOrderServices, useOrderServices } from '../api/order-services';
import { screeningSummary } from '../lib/summary';
import { ServiceList, type ScreeningPhase } from './service-list';
import styles from './service-list.module.css';

const liveKeys = [['profile'], ['order']];

/** One order's services; nothing while they load or when they cannot be read (the order still shows). */
export function OrderServices({ orderId, phase }: { orderId: number; phase: ScreeningPhase }) {
  useLiveScreening(['services'], liveKeys);
  const order = useOrderServices(orderId);
  if (!order.data || order.data.services.length === 0) return null;
  return (
    <ServiceList services={order.data.services} phase={phase} label={t('screening.services.label', { id: orderId })} />
  );
}

/** After submission: when the screening is expected to be complete, then each order's services. */
export function ScreeningServices() {
  useLiveScreening(['services'], liveKeys);
  const profile = useScreeningProfile();
  const orderIds = (profile.data?.orders ?? []).map((order) => order.id);
  const { services, loaded } = useAllOrderServices(orderIds);
  if (!profile.data || !loaded) return <Skeleton lines={3} label={t('screening.loading')} />;
  const summary = screeningSummary(services);
  return (
    <>
      <p className={styles.summary}>
        {summary.kind === 'complete'
          ? t('screening.summary.complete')
          : summary.kind === 'expected'
            ? t('screening.summary.expected', { date: dayDate(summary.latest) })
            : t('screening.summary.noEstimate')}
      </p>
      {summary.kind !== 'complete' && summary.needsYou > 0 ? (
        <p className={styles.summaryNeedsYou}>
          {summary.needsYou === 1
            ? t('screening.summary.needsYouOne')
            : t('screening.summary.needsYouMany', { count: summary.needsYou })}
        </p>
      ) : null}
      {orderIds.map((id) => (
        <OrderServices key={id} orderId={id} phase="after" />
      ))}
    </>
  );
}
