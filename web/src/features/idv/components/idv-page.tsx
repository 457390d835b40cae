// /idv: what verification asks of the applicant and what still follows it, then the provider's
// page in a frame. The applicant leaves for /idv/success when the frame says it finished (a
// message from its own origin), when the session stops being active (asked every 5 s, for a
// provider that never posts one), or by the "I have finished" link. A provider that posts its
// page's height gets a frame that tall, so a phone scrolls the page, never a box inside it.
import '@/features/idv/lib/messages';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import buttonStyles from '@/components/ui/button.module.css';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError, errorMessageOf } from '@/lib/api-client';
import { useCurrentUser } from '@/lib/current-user';
import { paymentRequired, siteSelectionApplies } from '@/lib/finalization';
import { t } from '@/lib/i18n';
import {
  IdvStatus,
  createIdvSession,
  idvFrameUrl,
  idvSuccessHref,
  storedIdvSession,
  usePolledIdvSession,
  type CreatedIdvSession,
} from '../api/idv-session';
import { FollowingSteps } from './following-steps';
import styles from './idv.module.css';

type FinishedMessage = { type: 'idv:finished'; sessionId: string };

function isFinishedMessage(data: unknown, sessionId: string): data is FinishedMessage {
  if (!data || typeof data !== 'object') return false;
  const message = data as Partial<FinishedMessage>;
  return message.type === 'idv:finished' && message.sessionId === sessionId;
}

/** The spec's minimum height of the frame. */
export const MIN_FRAME_HEIGHT = 600;
/** A bound on what a page may ask for, so a broken one cannot make the page endless. */
const MAX_FRAME_HEIGHT = 4000;

/** The height the provider's page asks for ({ type: 'idv:height', height }), within bounds; null for any other message. */
export function frameHeightOf(data: unknown): number | null {
  if (!data || typeof data !== 'object') return null;
  const { type, height } = data as { type?: unknown; height?: unknown };
  if (type !== 'idv:height' || typeof height !== 'number' || !Number.isFinite(height)) return null;
  return Math.min(MAX_FRAME_HEIGHT, Math.max(MIN_FRAME_HEIGHT, Math.ceil(height)));
}

function AboutVerification() {
  const user = useCurrentUser();
  return (
    <div className={styles.about}>
      <Card aria-labelledby="idv-needs">
        <h2 id="idv-needs" className={styles.heading}>
          {t('idv.need.title')}
        </h2>
        <ul className={styles.needs}>
          <li>{t('idv.need.id')}</li>
          <li>{t('idv.need.camera')}</li>
          <li>{t('idv.need.time')}</li>
          <li>{t('idv.need.photos')}</li>
        </ul>
      </Card>
      <Card aria-labelledby="idv-after">
        <h2 id="idv-after" className={styles.heading}>
          {t('idv.after.title')}
        </h2>
        {user ? (
          <FollowingSteps
            site={siteSelectionApplies(user)}
            payment={paymentRequired(user)}
            amount={user.package?.preferences.applicant_self_pay_initial_hold_amount}
            whenNone={t('idv.next.noneBefore')}
          />
        ) : null}
      </Card>
    </div>
  );
}

function VerificationFrame({ created }: { created: CreatedIdvSession }) {
  const navigate = useNavigate();
  const [loaded, setLoaded] = useState(false);
  const [height, setHeight] = useState<number | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const src = idvFrameUrl(created);
  const origin = useMemo(() => new URL(src, window.location.href).origin, [src]);
  const successHref = idvSuccessHref(created.id);
  const polled = usePolledIdvSession(created.id);
  const finished = polled.data !== undefined && polled.data.status !== IdvStatus.active;

  useEffect(() => storedIdvSession.set(created.id), [created.id]);

  useEffect(() => {
    if (finished) void navigate(successHref);
  }, [finished, navigate, successHref]);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      // Any page may post to this window: only the frame's origin speaks for the provider.
      if (event.origin !== origin) return;
      const asked = frameHeightOf(event.data);
      if (asked !== null) setHeight(asked);
      else if (isFinishedMessage(event.data, created.id)) void navigate(successHref);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [origin, created.id, navigate, successHref]);

  return (
    <>
      {created.env === 'sandbox' ? (
        <Alert tone="info">
          <p>{t('idv.sandbox')}</p>
        </Alert>
      ) : null}
      <div ref={box} className={styles.frameBox} aria-busy={!loaded || undefined}>
        <iframe
          className={styles.frame}
          style={height ? { height } : undefined}
          src={src}
          title={t('idv.frameTitle')}
          allow="camera; microphone"
          onLoad={() => {
            // Each step is a new page in the frame: one scrolled past shows the new step from its top.
            if (loaded && box.current && box.current.getBoundingClientRect().top < 0) {
              box.current.scrollIntoView({ block: 'start' });
            }
            setLoaded(true);
          }}
        />
        {loaded ? null : (
          <div className={styles.frameLoading}>
            <Skeleton lines={6} label={t('idv.frameLoading')} />
          </div>
        )}
      </div>
      <div className={styles.after}>
        <p>{t('idv.finishedHint')}</p>
        <Link className={`${buttonStyles.button} ${buttonStyles.secondary}`} to={successHref}>
          {t('idv.finished')}
        </Link>
      </div>
    </>
  );
}

export function IdvPage() {
  const subjectId = useCurrentUser()?.subject.id;
  // A query rather than a mutation: the PUT answers the active session when there is one, so
  // asking again is harmless, and the cache is dropped on leaving (gcTime 0) so coming back
  // after an expired or declined session starts a new one.
  const created = useQuery({
    queryKey: ['idv-session-start', subjectId],
    queryFn: () => createIdvSession(subjectId ?? 0),
    enabled: subjectId !== undefined,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });

  return (
    <div className={styles.page}>
      <PageHeader title={t('idv.title')} description={t('idv.intro')} />
      <AboutVerification />
      {created.isError ? (
        <Alert title={t('idv.createFailedTitle')} focusOnMount>
          {/* Too many sessions today (429): the server says when to come back. Any other failure is
              the spec's message. */}
          <p>
            {created.error instanceof ApiError && created.error.status === 429
              ? errorMessageOf(created.error)
              : t('idv.createFailed')}
          </p>
          <Button variant="secondary" loading={created.isFetching} onClick={() => void created.refetch()}>
            {t('common.tryAgain')}
          </Button>
        </Alert>
      ) : created.data ? (
        <VerificationFrame key={created.data.id} created={created.data} />
      ) : (
        <Skeleton lines={4} label={t('idv.starting')} />
      )}
    </div>
  );
}
