// The error page: the status, the message (or the server's errorMessage) and
// a way home.
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import styles from './error-page.module.css';
import { t } from '@/lib/i18n';

export const NOT_FOUND_TEXT = t('errors.notFound.title');

const titles: Record<number, string> = {
  401: t('errors.page.title401'),
  403: t('errors.page.title403'),
  404: NOT_FOUND_TEXT,
  500: t('errors.page.title500'),
};

export function ErrorPage({ status, message }: { status: number; message: string }) {
  const navigate = useNavigate();
  return (
    <section className={styles.page} aria-labelledby="error-title">
      <p className={styles.status}>
        <span className="visually-hidden">{t('errors.page.statusLabel')} </span>
        {status}
      </p>
      <h1 id="error-title" className={styles.title}>
        {titles[status] ?? titles[500]}
      </h1>
      <p className={styles.message}>{message}</p>
      <Button onClick={() => navigate('/')}>{t('errors.page.home')}</Button>
    </section>
  );
}
