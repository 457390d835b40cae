// The session's clock (lib/session-timeout.ts) and its warning: a dialog two minutes before the
// end that takes focus and names itself, with "Stay signed in" (focused first) and "Sign out".
// Closing it (Escape, the X) keeps the session too: it is the applicant acting. Loaded only while
// there is a session (app/layouts/root-layout.tsx).
import { useEffect, useRef, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { errorMessageOf, renewSession } from '@/lib/api-client';
import { logout } from '@/lib/auth';
import { flushOpenDrafts } from '@/lib/draft-flush';
import { t } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import { endSessionByTime, SESSION_WARNING_MS, sessionEndOf } from '@/lib/session-timeout';
import styles from './session-timeout.module.css';

/** How long without a key or pointer press before the session counts as left alone. */
export const IDLE_AFTER_MS = 10 * 60_000;

export default function SessionTimeout() {
  const end = useSession((s) => (s.credentials.jwt ? sessionEndOf(s.tokenExpiration) : null));
  // The end the warning was shown for: a renewed token is a new end, and no warning yet.
  const [warnedFor, setWarnedFor] = useState<number | null>(null);

  // The last key or pointer press: someone at work (typing a long form) is not idle, and their
  // session is renewed without asking; the warning is for a session left alone.
  const lastActivity = useRef(0);
  useEffect(() => {
    const seen = () => {
      lastActivity.current = Date.now();
    };
    const events = ['keydown', 'pointerdown'] as const;
    for (const name of events) document.addEventListener(name, seen, { capture: true, passive: true });
    return () => {
      for (const name of events) document.removeEventListener(name, seen, { capture: true });
    };
  }, []);

  useEffect(() => {
    if (end === null) return;
    const warn = setTimeout(
      () => {
        if (Date.now() - lastActivity.current > IDLE_AFTER_MS) {
          setWarnedFor(end);
          return;
        }
        // A renewal that fails for a reason worth showing warns instead; a refused one logs out by itself.
        renewSession().then(
          (renewed) => (renewed ? undefined : setWarnedFor(end)),
          () => setWarnedFor(end),
        );
      },
      Math.max(0, end - SESSION_WARNING_MS - Date.now()),
    );
    const finish = setTimeout(() => void endSessionByTime(), Math.max(0, end - Date.now()));
    return () => {
      clearTimeout(warn);
      clearTimeout(finish);
    };
  }, [end]);

  if (end === null || warnedFor !== end) return null;
  return <SessionWarning end={end} onStay={() => setWarnedFor(null)} />;
}

function SessionWarning({ end, onStay }: { end: number; onStay: () => void }) {
  const stayRef = useRef<HTMLButtonElement>(null);
  // Where the applicant was (a field half typed): focus goes back there when they stay. Read at the
  // first render, before the dialog takes the focus.
  const [returnTo] = useState(() => ({ current: document.activeElement as HTMLElement | null }));
  const [busy, setBusy] = useState<'stay' | 'out' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const left = useSecondsLeft(end);

  const stay = async () => {
    if (busy) return;
    setBusy('stay');
    setFailure(null);
    try {
      // A refused renewal logs out by itself (lib/api-client.ts); here only what can be tried again.
      if (await renewSession()) onStay();
      else void endSessionByTime();
    } catch (error) {
      setFailure(errorMessageOf(error));
    } finally {
      setBusy(null);
    }
  };

  const signOut = async () => {
    setBusy('out');
    await flushOpenDrafts();
    await logout();
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) void stay();
      }}
      title={t('common.sessionTimeout.title')}
      description={t('common.sessionTimeout.body')}
      initialFocus={stayRef}
      returnFocusTo={returnTo}
    >
      {/* Said once as the dialog opens (its description); the clock itself is not read out every second. */}
      <p className={styles.clock}>{t('common.sessionTimeout.left', { time: formatLeft(left) })}</p>
      {failure ? (
        <Alert>
          <p>{failure}</p>
        </Alert>
      ) : null}
      <div className={styles.actions}>
        <Button ref={stayRef} loading={busy === 'stay'} onClick={() => void stay()}>
          {t('common.sessionTimeout.stay')}
        </Button>
        <Button variant="secondary" loading={busy === 'out'} onClick={() => void signOut()}>
          {t('common.sessionTimeout.signOut')}
        </Button>
      </div>
    </Dialog>
  );
}

function useSecondsLeft(end: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(tick);
  }, []);
  return Math.max(0, Math.ceil((end - now) / 1000));
}

/** m:ss, as a clock reads. */
function formatLeft(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
