// /confirm-email?token=...: the link mailed to a new e-mail address. It
// confirms the change once, on arrival, and says what happened.
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { EMAIL_CHANGED_MESSAGE, confirmEmailChange } from '@/features/auth/api/confirm-email-change';
import styles from '@/features/auth/components/auth-card.module.css';
import { Alert } from '@/components/ui/alert';
import { ApiError, errorMessageOf } from '@/lib/api-client';
import { t } from '@/lib/i18n';
import { resetSession, session } from '@/lib/session';

type Outcome = { state: 'working' } | { state: 'done'; message: string } | { state: 'failed'; message: string };

// A 422 names the token field; its message says what to do.
function failureMessage(error: unknown): string {
  if (error instanceof ApiError && error.errorFields.length > 0) {
    return error.errorFields.map((field) => field.message).join(' ');
  }
  return errorMessageOf(error);
}

export function ConfirmEmailRoute() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const [outcome, setOutcome] = useState<Outcome>(() =>
    token ? { state: 'working' } : { state: 'failed', message: t('auth.confirmEmail.noToken') },
  );
  // The link works once: post it once per token, even when effects run twice.
  const posted = useRef<string | null>(null);

  useEffect(() => {
    if (!token || posted.current === token) return;
    posted.current = token;
    confirmEmailChange(token)
      .then((answer) => {
        // The change ends every session, this browser's included.
        if (session.get().loggedIn) resetSession();
        setOutcome({ state: 'done', message: answer?.message || EMAIL_CHANGED_MESSAGE });
      })
      .catch((error: unknown) => setOutcome({ state: 'failed', message: failureMessage(error) }));
  }, [token]);

  return (
    <section className={styles.card} aria-labelledby="confirm-email-title">
      <h1 id="confirm-email-title" className={styles.title}>
        {t('auth.confirmEmail.title')}
      </h1>
      {outcome.state === 'working' ? (
        <p role="status" className={styles.intro}>
          {t('auth.confirmEmail.working')}
        </p>
      ) : outcome.state === 'done' ? (
        <>
          <p role="status" className={styles.intro}>
            {outcome.message} {t('auth.confirmEmail.logInAgain')}
          </p>
          <Link to={paths.login.getHref()}>{t('auth.goToLogin')}</Link>
        </>
      ) : (
        <>
          <Alert>
            <p>{outcome.message}</p>
          </Alert>
          <Link to={paths.login.getHref()}>{t('auth.goToLogin')}</Link>
        </>
      )}
    </section>
  );
}
