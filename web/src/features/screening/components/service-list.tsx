// The services of one order and where each stands, in the applicant's words. Before submission
// (phase "before") nothing has started: a service says what the applicant still has to give, never
// that it is under way. After it, each says its state, why (the reason in plain words), what the
// applicant can do (a link straight to the page), when it is expected, and when it last changed; a
// service waiting on the applicant stands out, and a completed one offers a dispute.
import '@/features/screening/lib/messages';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { paths } from '@/config/paths';
import { dayDate, longDate } from '@/lib/format-date';
import { t, type MessageKey } from '@/lib/i18n';
import type { ScreeningService, ServiceState } from '../api/order-services';
import { isComplete } from '../lib/summary';
import styles from './service-list.module.css';

const stateKeys: Record<ServiceState, MessageKey> = {
  pending: 'screening.state.pending',
  'in-progress': 'screening.state.in-progress',
  'waiting-applicant': 'screening.state.waiting-applicant',
  'waiting-third-party': 'screening.state.waiting-third-party',
  complete: 'screening.state.complete',
};

export type ScreeningPhase = 'before' | 'after';

function stateOf(service: ScreeningService): ServiceState {
  return isComplete(service) ? 'complete' : (service.state ?? 'pending');
}

function Estimate({ estimate }: { estimate: NonNullable<ScreeningService['estimate']> }) {
  const earliest = dayDate(estimate.earliest);
  const latest = dayDate(estimate.latest);
  return (
    <p className={styles.detail}>
      {earliest === latest
        ? t('screening.estimate.on', { date: latest })
        : t('screening.estimate.between', { earliest, latest })}
    </p>
  );
}

function Reason({ service }: { service: ScreeningService }) {
  const reason = service.reason;
  if (!reason) return null;
  const action = reason.action ? (
    <Link to={reason.action.path} className={styles.action}>
      {reason.action.label}
    </Link>
  ) : null;
  if (service.state === 'waiting-applicant')
    return (
      <Alert tone="warning" title={t('screening.needsYou')} className={styles.alert}>
        <p className={styles.reasonText}>{reason.text}</p>
        {action}
      </Alert>
    );
  return (
    <>
      <p className={styles.reasonText}>{reason.text}</p>
      {action}
    </>
  );
}

function ServiceItem({ service, phase }: { service: ScreeningService; phase: ScreeningPhase }) {
  const state = stateOf(service);
  const before = phase === 'before';
  return (
    <li className={styles.service} data-state={state}>
      <div className={styles.head}>
        <span className={styles.name}>{service.name}</span>
        {before ? (
          <span className={service.hasError ? styles.attention : styles.badge}>
            {service.hasError ? t('screening.needsDetails') : t('screening.notStarted')}
          </span>
        ) : (
          <span className={styles.badge} data-state={state}>
            {t(stateKeys[state])}
          </span>
        )}
      </div>
      {before ? null : (
        <>
          {state === 'complete' ? null : <Reason service={service} />}
          {state !== 'complete' && service.estimate ? <Estimate estimate={service.estimate} /> : null}
          {service.updatedAt ? (
            <p className={styles.updated}>{t('screening.updated', { date: longDate(service.updatedAt) })}</p>
          ) : null}
          {state === 'complete' ? (
            <Link to={paths.disputeNew.getHref(service.code)} className={styles.dispute}>
              {t('screening.dispute')}
              <span className="visually-hidden"> {t('screening.disputeService', { name: service.name })}</span>
            </Link>
          ) : null}
        </>
      )}
    </li>
  );
}

export function ServiceList({
  services,
  phase,
  label,
}: {
  services: ScreeningService[];
  phase: ScreeningPhase;
  label: string;
}) {
  return (
    <ul className={styles.services} aria-label={label}>
      {services.map((service) => (
        <ServiceItem key={service.id} service={service} phase={phase} />
      ))}
    </ul>
  );
}
