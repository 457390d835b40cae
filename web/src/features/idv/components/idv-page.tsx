// /idv: what verification asks of the applicant, then the provider's page in a frame. The
// applicant leaves for /idv/success when the frame says it finished (a message from its
// own origin), when the session stops being active (asked every 5 s, for a provider that
// never posts one), or by the "I have finished" link.
import '@/features/idv/lib/messages';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import buttonStyles from '@/components/ui/button.module.css';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError, errorMessageOf } from '@/lib/api-client';
import { useCurrentUser } from '@/lib/current-user';
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
import styles from './idv.module.css';

type FinishedMessage = { type: 'idv:finished'; sessionId: string };

function isFinishedMessage(data: unknown, sessionId: string): data is FinishedMessage {
  if (!data || typeof data !== 'object') return false;
  const message = data as Partial<FinishedMessage>;
  return message.type === 'idv:finished' && message.sessionId === sessionId;
}

function WhatYouNeed() {
  return (
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
  );
}

function VerificationFrame({ created }: { created: CreatedIdvSession }) {
  const navigate = useNavigate();
  const [loaded, setLoaded] = useState(false);
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
      if (event.origin !== origin || !isFinishedMessage(event.data, created.id)) return;
      void navigate(successHref);
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
      <div className={styles.frameBox} aria-busy={!loaded || undefined}>
        <iframe
          className={styles.frame}
          src={src}
          title={t('idv.frameTitle')}
          allow="camera; microphone"
          onLoad={() => setLoaded(true)}
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
      <WhatYouNeed />
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
