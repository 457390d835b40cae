// /reminders/stop?token=...: the one-click stop link of a reminder. The page posts the token from
// script when it opens, never the server on a plain GET, so an e-mail scanner that fetches the link
// stops nothing; the applicant can turn the reminders back on from here.
import '@/features/reminders/lib/messages';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { resumeReminders, stopReminders } from '@/features/reminders/api/stop-reminders';
import styles from '@/features/auth/components/auth-card.module.css';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ApiError, errorMessageOf } from '@/lib/api-client';
import { useFocusTitle } from '@/lib/focus-title';
import { t } from '@/lib/i18n';

type Outcome =
  { state: 'working' } | { state: 'stopped' } | { state: 'resumed' } | { state: 'failed'; message: string };

// A 422 names the token field; its message says what to do.
function failureMessage(error: unknown): string {
  if (error instanceof ApiError && error.errorFields.length > 0) {
    return error.errorFields.map((field) => field.message).join(' ');
  }
  return errorMessageOf(error);
}

export function StopRemindersRoute() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const [outcome, setOutcome] = useState<Outcome>(() =>
    token ? { state: 'working' } : { state: 'failed', message: t('reminders.stop.noToken') },
  );
  const [busy, setBusy] = useState(false);
  // Post once per token, even when effects run twice.
  const posted = useRef<string | null>(null);
  useFocusTitle('stop-reminders-title', outcome.state);

  useEffect(() => {
    if (!token || posted.current === token) return;
    posted.current = token;
    stopReminders(token)
      .then(() => setOutcome({ state: 'stopped' }))
      .catch((error: unknown) => setOutcome({ state: 'failed', message: failureMessage(error) }));
  }, [token]);

  function change(to: 'stopped' | 'resumed') {
    setBusy(true);
    (to === 'resumed' ? resumeReminders(token) : stopReminders(token))
      .then(() => setOutcome({ state: to }))
      .catch((error: unknown) => setOutcome({ state: 'failed', message: failureMessage(error) }))
      .finally(() => setBusy(false));
  }

  return (
    <section className={styles.card} aria-labelledby="stop-reminders-title">
      <h1 id="stop-reminders-title" className={styles.title}>
        {outcome.state === 'stopped' ? t('reminders.stop.stopped') : t('reminders.stop.title')}
      </h1>
      {outcome.state === 'working' && (
        <p role="status" className={styles.intro}>
          {t('reminders.stop.working')}
        </p>
      )}
      {outcome.state === 'stopped' && (
        <>
          <p role="status" className={styles.intro}>
            {t('reminders.stop.stoppedHint')}
          </p>
          <div className={styles.actions}>
            <Button variant="secondary" onClick={() => change('resumed')} disabled={busy}>
              {t('reminders.stop.resume')}
            </Button>
          </div>
        </>
      )}
      {outcome.state === 'resumed' && (
        <>
          <p role="status" className={styles.intro}>
            {t('reminders.stop.resumed')}
          </p>
          <div className={styles.actions}>
            <Button variant="secondary" onClick={() => change('stopped')} disabled={busy}>
              {t('reminders.stop.stopAgain')}
            </Button>
          </div>
        </>
      )}
      {outcome.state === 'failed' && (
        <Alert>
          <p>{outcome.message}</p>
        </Alert>
      )}
      <p>
        <Link to={paths.login.getHref()}>{t('auth.goToLogin')}</Link>
      </p>
    </section>
  );
}
