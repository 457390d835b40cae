// The error page: what went wrong in plain words and a link on, home when
// logged in, else to the login page. A 404 says how to check the address
// (GOV.UK's page-not-found pattern) rather than echoing it; other errors add
// their code, which support asks for.
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { t, type MessageKey } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import styles from './error-page.module.css';

// Keys, not messages: a message made at import would be English before the catalogue loads (lib/i18n.ts).
const titles: Record<number, MessageKey> = {
  401: 'errors.page.title401',
  403: 'errors.page.title403',
  404: 'errors.notFound.title',
  500: 'errors.page.title500',
};

/** `message`: what the server or the app said went wrong; a 404 needs none. */
export function ErrorPage({ status, message }: { status: number; message?: string }) {
  const loggedIn = useSession((s) => s.loggedIn);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The page replaced the one the applicant was on: a screen reader starts at its title.
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <section className={styles.page} aria-labelledby="error-title">
      <h1 id="error-title" ref={headingRef} tabIndex={-1} className={styles.title}>
        {t(titles[status] ?? titles[500])}
      </h1>
      {status === 404 ? (
        <>
          <p>{t('errors.notFound.typed')}</p>
          <p>{t('errors.notFound.pasted')}</p>
        </>
      ) : (
        <>
          <p>{message}</p>
          <p className={styles.code}>{t('errors.page.code', { status })}</p>
        </>
      )}
      <p>
        {loggedIn ? (
          <Link to={paths.home.getHref()}>{t('errors.page.home')}</Link>
        ) : (
          <Link to={paths.login.getHref()}>{t('errors.page.login')}</Link>
        )}
      </p>
    </section>
  );
}
