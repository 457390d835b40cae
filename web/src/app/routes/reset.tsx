import { Link, useNavigate, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { NewPasswordForm } from '@/features/auth/components/new-password-form';
import styles from '@/features/auth/components/auth-card.module.css';

export function ResetRoute() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  return (
    <section className={styles.card} aria-labelledby="reset-title">
      <h1 id="reset-title" className={styles.title}>
        Set a new password
      </h1>
      {token ? (
        <>
          <p className={styles.intro}>Choose a new password for your Applicant Portal account.</p>
          <NewPasswordForm token={token} onSuccess={() => navigate(paths.login.getHref())} />
        </>
      ) : (
        <>
          <p className={styles.intro}>
            This page needs the link from the password reset e-mail. Use Forgot Password on the login page to get
            one.
          </p>
          <Link to={paths.login.getHref()}>Go to the login page</Link>
        </>
      )}
    </section>
  );
}
