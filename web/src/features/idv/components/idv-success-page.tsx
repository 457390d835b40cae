// /idv/success: back from the provider. The session is read again (spec section 4): still
// active goes back to the frame; expired or declined explains and starts over; anything else
// is finished, and the applicant moves on to the status the server decided (lib/finalization.ts).
import '@/features/idv/lib/messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { ApiError, errorMessageOf } from '@/lib/api-client';
import { moveSubjectStatus } from '@/lib/auth';
import { config } from '@/lib/config';
import { currentUserQuery, ensureCurrentUser } from '@/lib/current-user';
import { statusAfterIdv } from '@/lib/finalization';
import { t } from '@/lib/i18n';
import { statusFromId, statusHomePath, statusIds } from '@/lib/subject-status';
import { IdvStatus, idvSessionQuery, storedIdvSession, type IdvSession } from '../api/idv-session';
import styles from './idv.module.css';

/** One outcome; its heading takes focus, so a screen reader starts at what happened. */
function Outcome({ title, children }: { title: string; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <Card aria-labelledby="idv-outcome">
      <h2 id="idv-outcome" className={styles.heading} tabIndex={-1} ref={heading}>
        {title}
      </h2>
      {children}
    </Card>
  );
}

/**
 * A wait the applicant can see, not only bars: what is happening now. The bars' status region says
 * the same to a screen reader, so the visible line is not read twice.
 */
function Working({ label }: { label: string }) {
  return (
    <Card className={styles.working}>
      <p className={styles.text} aria-hidden="true">
        {label}
      </p>
      <Skeleton lines={2} label={label} />
    </Card>
  );
}

/** Expired or declined: the old session is over, so /idv starts a new one. */
function StartAgain({ label }: { label: string }) {
  const navigate = useNavigate();
  return (
    <div className={styles.actions}>
      <Button
        onClick={() => {
          storedIdvSession.clear();
          void navigate(paths.idv.getHref());
        }}
      >
        {label}
      </Button>
    </div>
  );
}

function SupportHint() {
  return (
    <p className={styles.text}>
      {t('idv.success.support', { email: config.brand.supportEmail, phone: config.brand.supportPhone })}
    </p>
  );
}

/** Neither active nor expired, not declined: post the next status once, then go to its page. */
function Finish() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const started = useRef(false);

  const finish = useCallback(async () => {
    setError(null);
    try {
      const { user } = await ensureCurrentUser();
      const next = statusAfterIdv(user);
      await moveSubjectStatus(statusIds[next]);
      storedIdvSession.clear();
      await navigate(statusHomePath[next], { replace: true });
    } catch (failure) {
      setError(failure);
    }
  }, [navigate]);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void finish();
  }, [finish]);

  /** After a refusal the server knows better: read the user again and go where its status belongs. */
  const reload = async () => {
    setError(null);
    try {
      const user = await queryClient.fetchQuery({ ...currentUserQuery(), staleTime: 0 });
      const status = statusFromId(user.subject.status?.statusId);
      if (status !== 'idv-started') {
        await navigate(statusHomePath[status], { replace: true });
        return;
      }
    } catch (failure) {
      setError(failure);
      return;
    }
    await finish();
  };

  if (!error) return <Working label={t('idv.success.finishing')} />;
  const conflict = error instanceof ApiError && error.status === 409;
  return (
    <Alert title={t('idv.success.moveFailedTitle')} focusOnMount>
      <p>{errorMessageOf(error)}</p>
      <Button variant="secondary" onClick={() => void reload()}>
        {conflict ? t('idv.success.reload') : t('common.tryAgain')}
      </Button>
    </Alert>
  );
}

function SessionOutcome({ session }: { session: IdvSession }) {
  const navigate = useNavigate();
  if (session.status === IdvStatus.active) {
    return (
      <Outcome title={t('idv.success.activeTitle')}>
        <p className={styles.text}>{t('idv.success.activeText')}</p>
        <div className={styles.actions}>
          <Button onClick={() => void navigate(paths.idv.getHref())}>{t('idv.success.backToVerification')}</Button>
        </div>
      </Outcome>
    );
  }
  if (session.status === IdvStatus.expired) {
    return (
      <Outcome title={t('idv.success.expiredTitle')}>
        <p className={styles.text}>{t('idv.success.expiredText')}</p>
        <StartAgain label={t('idv.success.startNew')} />
      </Outcome>
    );
  }
  if (session.decision === 'declined') {
    return (
      <Outcome title={t('idv.success.declinedTitle')}>
        <p className={styles.text}>{t('idv.success.declinedText')}</p>
        <ul className={styles.tips}>
          <li>{t('idv.success.declinedId')}</li>
          <li>{t('idv.success.declinedLight')}</li>
          <li>{t('idv.success.declinedSelfie')}</li>
        </ul>
        <SupportHint />
        <StartAgain label={t('idv.success.tryAgain')} />
      </Outcome>
    );
  }
  return <Finish />;
}

export function IdvSuccessPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const id = params.get('session') || storedIdvSession.get() || '';
  // Asked afresh: what /idv's poll last saw may already be out of date (a decision came since).
  const session = useQuery({ ...idvSessionQuery(id), enabled: id !== '', refetchOnMount: 'always' });

  let body: ReactNode;
  if (!id) {
    body = (
      <Outcome title={t('idv.success.noSessionTitle')}>
        <p className={styles.text}>{t('idv.success.noSessionText')}</p>
        <div className={styles.actions}>
          <Button onClick={() => void navigate(paths.idv.getHref())}>{t('idv.success.backToVerification')}</Button>
        </div>
      </Outcome>
    );
  } else if (session.isError) {
    body = (
      <Alert title={t('idv.success.fetchFailedTitle')} focusOnMount>
        <p>{errorMessageOf(session.error)}</p>
        <Button variant="secondary" loading={session.isFetching} onClick={() => void session.refetch()}>
          {t('common.tryAgain')}
        </Button>
      </Alert>
    );
  } else if (!session.data || !session.isFetchedAfterMount) {
    body = <Working label={t('idv.success.loading')} />;
  } else {
    body = <SessionOutcome session={session.data} />;
  }

  return (
    <div className={styles.page}>
      <PageHeader title={t('idv.title')} />
      {body}
    </div>
  );
}
