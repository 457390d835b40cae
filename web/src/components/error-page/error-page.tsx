// The error page: the status, the message (or the server's errorMessage) and
// a way home.
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import styles from './error-page.module.css';

export const NOT_FOUND_TEXT = 'This page could not be found';

const titles: Record<number, string> = {
  401: 'You need to log in',
  403: 'Access denied',
  404: NOT_FOUND_TEXT,
  500: 'Something went wrong',
};

export function ErrorPage({ status, message }: { status: number; message: string }) {
  const navigate = useNavigate();
  return (
    <section className={styles.page} aria-labelledby="error-title">
      <p className={styles.status}>
        <span className="visually-hidden">Error </span>
        {status}
      </p>
      <h1 id="error-title" className={styles.title}>
        {titles[status] ?? titles[500]}
      </h1>
      <p className={styles.message}>{message}</p>
      <Button onClick={() => navigate('/')}>Return to Safety</Button>
    </section>
  );
}
