import '@/features/auth/lib/reset-messages';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { ResetPassword } from '@/features/auth/components/reset-password';
import styles from '@/features/auth/components/auth-card.module.css';
import { loginStateAfterReset } from '@/features/auth/lib/login-state';
import { t } from '@/lib/i18n';

export function ResetRoute() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  return (
    <section className={styles.card} aria-labelledby="reset-title">
      <h1 id="reset-title" className={styles.title}>
        {t('reset.page.title')}
      </h1>
      {token ? (
        <ResetPassword
          token={token}
          onDone={(username) =>
            navigate(paths.login.getHref(), username ? { state: loginStateAfterReset(username) } : undefined)
          }
        />
      ) : (
        <>
          <p className={styles.intro}>{t('reset.page.noToken')}</p>
          <Link to={paths.login.getHref()}>{t('auth.goToLogin')}</Link>
        </>
      )}
    </section>
  );
}
