// The login page (spec section 2), in both places it renders: the login shell of /login's first load
// (app/login-shell.tsx), without React Router, and the router's /login route (app/routes/login.tsx)
// once the app is loaded. What it needs of either comes through LoginPageProps.
import { lazy, Suspense } from 'react';
import { TrustPanel } from '@/components/trust-panel/trust-panel';
import { paths } from '@/config/paths';
import { LoginForm } from '@/features/auth/components/login-form';
import styles from '@/features/auth/components/auth-card.module.css';
import { usernameFromLoginState } from '@/features/auth/lib/login-state';
import { t } from '@/lib/i18n';
import { takeReturnPath, useLoginNotice, useRefusedInvitation } from '@/lib/login-notice';

// Only when a refused invitation link brought the visitor: off /login's first load.
const RefusedInvitation = lazy(() =>
  import('@/features/auth/components/refused-invitation').then((m) => ({ default: m.RefusedInvitation })),
);

export type LoginPageProps = {
  /** Goes to another page of the app (a path, query included). */
  navigate: (to: string) => void;
  /** The history state the visitor arrived with (/reset leaves the account's address in it). */
  locationState: unknown;
};

export function LoginPage({ navigate, locationState }: LoginPageProps) {
  // After a new password on /reset: the account's address is filled in, the password is what is left to type.
  const username = usernameFromLoginState(locationState);
  // On the page, not in the snackbar: it stays while the visitor reads it, and
  // the snackbar's code is not part of what /login loads.
  const notice = useLoginNotice();
  const refusedInvitation = useRefusedInvitation();
  // The employer is not known here (logged out, no invitation in hand): the
  // trust panel speaks of "your employer"; the setup wizard names it.
  return (
    <div className={styles.page}>
      <section className={styles.card} aria-labelledby="login-title">
        <h1 id="login-title" className={styles.title}>
          {t('auth.login.title')}
        </h1>
        <p className={styles.intro}>{t('auth.login.intro')}</p>
        {notice ? (
          refusedInvitation ? (
            <Suspense
              fallback={
                <p className={styles.notice} role="status">
                  {notice}
                </p>
              }
            >
              <RefusedInvitation token={refusedInvitation} />
            </Suspense>
          ) : (
            <p className={styles.notice} role="status">
              {notice}
            </p>
          )
        ) : null}
        {/* Back to the page a forced logout interrupted, else home, which sends the applicant on to the page their status allows. */}
        <LoginForm
          username={username}
          focusPassword={username !== ''}
          allowCode
          onSuccess={() => navigate(takeReturnPath() ?? paths.home.getHref())}
        />
      </section>
      <div className={styles.aside}>
        <TrustPanel />
      </div>
    </div>
  );
}
