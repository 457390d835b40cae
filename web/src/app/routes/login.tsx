import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { LoginForm } from '@/features/auth/components/login-form';
import styles from '@/features/auth/components/auth-card.module.css';
import { useLoginNotice } from '@/lib/login-notice';

export function LoginRoute() {
  const navigate = useNavigate();
  // On the page, not in the snackbar: it stays while the visitor reads it, and
  // the snackbar's code is not part of what /login loads.
  const notice = useLoginNotice();
  return (
    <section className={styles.card} aria-labelledby="login-title">
      <h1 id="login-title" className={styles.title}>
        Applicant Portal
      </h1>
      {notice ? (
        <p className={styles.notice} role="status">
          {notice}
        </p>
      ) : null}
      <p className={styles.intro}>Log in to continue your background screening.</p>
      {/* Home sends the applicant on to the page their status allows. */}
      <LoginForm onSuccess={() => navigate(paths.home.getHref())} />
    </section>
  );
}
