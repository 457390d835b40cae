// /idv/success: back from the provider. The session is read again (spec section 4): still
// active goes back to the frame; expired or declined explains and starts over; anything else
// is finished. A finished session the provider has not decided yet is asked again for a few
// seconds, so the page can say "Identity verified" when it is true. Then the status the server
// decided (lib/finalization.ts) is recorded at once, and the page confirms and says what comes
// next; "Continue" takes the applicant there.
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
import { keepMovedStatus, postSubjectStatus } from '@/lib/auth';
import { config } from '@/lib/config';
import { currentUserQuery, ensureCurrentUser } from '@/lib/current-user';
import { useFocusTitle } from '@/lib/focus-title';
import { paymentRequired, statusAfterIdv } from '@/lib/finalization';
import { t } from '@/lib/i18n';
import { statusFromId, statusHomePath, statusIds } from '@/lib/subject-status';
import type { UserPayload } from '@/types/api';
import { IdvStatus, idvSessionQuery, storedIdvSession, type IdvSession } from '../api/idv-session';
import { FollowingSteps } from './following-steps';
import styles from './idv.module.css';

/** How long a finished session is asked for the provider's decision before the applicant moves on without it. */
export const DECISION_WAIT_MS = 15_000;
const DECISION_POLL_MS = 1_500;

const TITLE_ID = 'idv-title';

/**
 * The page's h1 says what happened, and takes focus each time it changes, so a screen reader
 * starts at the outcome rather than wherever the focus was left.
 */
function OutcomePage({ title, children }: { title: string; children: ReactNode }) {
  useFocusTitle(TITLE_ID, title);
  return (
    <>
      <PageHeader title={title} titleId={TITLE_ID} />
      {children}
    </>
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

/** The confirmation, once the move is recorded: what was done, what follows, and one way on. */
function Confirmation({ approved, moved }: { approved: boolean; moved: UserPayload }) {
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);
  const next = statusFromId(moved.subject.status?.statusId);
  const goOn = async () => {
    setLeaving(true);
    // Only now does the cache learn the new status: the next page's guard lets the applicant in.
    await keepMovedStatus(moved);
    storedIdvSession.clear();
    await navigate(statusHomePath[next], { replace: true });
  };
  return (
    <OutcomePage title={approved ? t('idv.success.verifiedTitle') : t('idv.success.sentTitle')}>
      <Card aria-labelledby="idv-next">
        <p className={styles.text}>{approved ? t('idv.success.verifiedText') : t('idv.success.sentText')}</p>
        <h2 id="idv-next" className={`${styles.heading} ${styles.nextHeading}`}>
          {t('idv.success.nextTitle')}
        </h2>
        <FollowingSteps
          site={next === 'MRO-site-selection-started'}
          payment={next !== 'finalization-complete' && paymentRequired(moved)}
          amount={moved.package?.preferences.applicant_self_pay_initial_hold_amount}
          whenNone={t('idv.next.noneAfter')}
        />
        <div className={styles.actions}>
          <Button onClick={() => void goOn()} loading={leaving}>
            {t('idv.success.continue')}
          </Button>
        </div>
      </Card>
    </OutcomePage>
  );
}

/** Finished and not declined: post the next status once, then confirm. */
function Finish({ approved }: { approved: boolean }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const [moved, setMoved] = useState<UserPayload | null>(null);
  const started = useRef(false);

  const finish = useCallback(async () => {
    setError(null);
    try {
      const { user } = await ensureCurrentUser();
      // Recorded on the server at once, so closing the tab now loses nothing: the next login
      // goes on from the new status, with no second verification.
      setMoved(await postSubjectStatus(statusIds[statusAfterIdv(user)]));
    } catch (failure) {
      setError(failure);
    }
  }, []);

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

  if (moved) return <Confirmation approved={approved} moved={moved} />;
  if (!error) {
    return (
      <OutcomePage title={t('idv.title')}>
        <Working label={t('idv.success.finishing')} />
      </OutcomePage>
    );
  }
  const conflict = error instanceof ApiError && error.status === 409;
  return (
    <OutcomePage title={t('idv.success.moveFailedTitle')}>
      <Alert>
        <p>{errorMessageOf(error)}</p>
        <Button variant="secondary" onClick={() => void reload()}>
          {conflict ? t('idv.success.reload') : t('common.tryAgain')}
        </Button>
      </Alert>
    </OutcomePage>
  );
}

/** Nothing finished to check here: the way back to the frame, where the session goes on or starts. */
function BackToVerification({ title, text }: { title: string; text: string }) {
  const navigate = useNavigate();
  return (
    <OutcomePage title={title}>
      <Card>
        <p className={styles.text}>{text}</p>
        <div className={styles.actions}>
          <Button onClick={() => void navigate(paths.idv.getHref())}>{t('idv.success.backToVerification')}</Button>
        </div>
      </Card>
    </OutcomePage>
  );
}

function SessionOutcome({ session, waitedOut }: { session: IdvSession; waitedOut: boolean }) {
  if (session.status === IdvStatus.active) {
    return <BackToVerification title={t('idv.success.activeTitle')} text={t('idv.success.activeText')} />;
  }
  if (session.status === IdvStatus.expired) {
    return (
      <OutcomePage title={t('idv.success.expiredTitle')}>
        <Card>
          <p className={styles.text}>{t('idv.success.expiredText')}</p>
          <StartAgain label={t('idv.success.startNew')} />
        </Card>
      </OutcomePage>
    );
  }
  if (session.decision === 'declined') {
    return (
      <OutcomePage title={t('idv.success.declinedTitle')}>
        <Card>
          <p className={styles.text}>{t('idv.success.declinedText')}</p>
          <ul className={styles.tips}>
            <li>{t('idv.success.declinedId')}</li>
            <li>{t('idv.success.declinedLight')}</li>
            <li>{t('idv.success.declinedSelfie')}</li>
          </ul>
          <SupportHint />
          <StartAgain label={t('idv.success.tryAgain')} />
        </Card>
      </OutcomePage>
    );
  }
  if (session.decision === null && !waitedOut) {
    return (
      <OutcomePage title={t('idv.title')}>
        <Working label={t('idv.success.checking')} />
      </OutcomePage>
    );
  }
  return <Finish approved={session.decision === 'approved'} />;
}

/** True once the provider has had DECISION_WAIT_MS to decide. */
function useWaitedOut(): boolean {
  const [waitedOut, setWaitedOut] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setWaitedOut(true), DECISION_WAIT_MS);
    return () => window.clearTimeout(timer);
  }, []);
  return waitedOut;
}

const undecided = (session: IdvSession | undefined) =>
  session !== undefined &&
  session.status !== IdvStatus.active &&
  session.status !== IdvStatus.expired &&
  session.decision === null;

export function IdvSuccessPage() {
  const [params] = useSearchParams();
  const id = params.get('session') || storedIdvSession.get() || '';
  const waitedOut = useWaitedOut();
  // Asked afresh: what /idv's poll last saw may already be out of date (a decision came since).
  const session = useQuery({
    ...idvSessionQuery(id),
    enabled: id !== '',
    refetchOnMount: 'always',
    refetchInterval: (query) => (!waitedOut && undecided(query.state.data) ? DECISION_POLL_MS : false),
  });

  let body: ReactNode;
  if (!id) {
    body = <BackToVerification title={t('idv.success.noSessionTitle')} text={t('idv.success.noSessionText')} />;
  } else if (session.isError) {
    body = (
      <OutcomePage title={t('idv.success.fetchFailedTitle')}>
        <Alert>
          <p>{errorMessageOf(session.error)}</p>
          <Button variant="secondary" loading={session.isFetching} onClick={() => void session.refetch()}>
            {t('common.tryAgain')}
          </Button>
        </Alert>
      </OutcomePage>
    );
  } else if (!session.data || !session.isFetchedAfterMount) {
    body = (
      <OutcomePage title={t('idv.title')}>
        <Working label={t('idv.success.loading')} />
      </OutcomePage>
    );
  } else {
    body = <SessionOutcome session={session.data} waitedOut={waitedOut} />;
  }

  return <div className={styles.page}>{body}</div>;
}
