import { Link, useNavigate, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { ResetPassword } from '@/features/auth/components/reset-password';
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
        <ResetPassword token={token} onDone={() => navigate(paths.login.getHref())} />
      ) : (
        <>
          <p className={styles.intro}>
            This page needs the link from the password reset e-mail. Use Forgot Password on the login page to get one.
          </p>
          <Link to={paths.login.getHref()}>Go to the login page</Link>
        </>
      )}
    </section>
  );
}
