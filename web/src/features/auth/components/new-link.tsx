// The page a link that no longer works leads to (/new-link?kind=…&token=…):
// what happened to it, in plain words, and "Send me a new link" to the
// address on file. Without a token (or with one nobody holds) it asks for
// the e-mail address instead. The answer is the same whether or not the
// address is known (POST /api/v2/links/renew).
import '../lib/signin-messages';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { errorMessageOf } from '@/lib/api-client';
import { t } from '@/lib/i18n';
import { getLinkState, renewLink, type LinkKind, type LinkState } from '../api/renew-link';
import { LoginEmailField } from './login-email-field';
import styles from './auth-card.module.css';
import { EMAIL_ADDRESS } from '@/lib/email';

type NewLinkProps = {
  kind: LinkKind;
  token: string | null;
  /** Told the link's state once the server has said it (the page's title follows it). */
  onState?: (state: LinkState) => void;
  /** Shown on the login page itself: no link to it. */
  onLoginPage?: boolean;
};

export function NewLink({ kind, token, onState, onLoginPage = false }: NewLinkProps) {
  const toLogin = onLoginPage ? null : <Link to={paths.login.getHref()}>{t('auth.goToLogin')}</Link>;
  const [state, setState] = useState<LinkState | null>(token ? null : 'unknown');
  // Where the new link went: the address on file (the page held a link it knows), or the one typed.
  const [sent, setSent] = useState<'onFile' | 'typed' | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string>();
  const emailRef = useRef<HTMLInputElement>(null);
  const sentRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (!token) return;
    let current = true;
    const settle = (s: LinkState) => {
      if (!current) return;
      setState(s);
      onState?.(s);
    };
    // A failed check is no verdict: the page then asks as for an unknown link.
    getLinkState(kind, token).then(settle, () => settle('unknown'));
    return () => {
      current = false;
    };
  }, [kind, token, onState]);

  useEffect(() => {
    if (sent) sentRef.current?.focus();
  }, [sent]);

  const send = async (body: { token?: string; email?: string }) => {
    setFailure(null);
    setBusy(true);
    try {
      await renewLink({ kind, ...body });
      setSent(body.token ? 'onFile' : 'typed');
    } catch (error) {
      setFailure(errorMessageOf(error));
    } finally {
      setBusy(false);
    }
  };

  const onEmail = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    const problem = !address
      ? t('signin.newLink.emailRequired')
      : EMAIL_ADDRESS.test(address)
        ? undefined
        : t('signin.newLink.emailFormat');
    setEmailError(problem);
    if (problem) {
      emailRef.current?.focus();
      return;
    }
    void send({ email: address });
  };

  if (sent) {
    return (
      <>
        <h2 ref={sentRef} tabIndex={-1} className={styles.subtitle}>
          {t('signin.newLink.sentTitle')}
        </h2>
        <p className={styles.notice} role="status">
          {/* A link whose state was told is known to be someone's: no need to hedge. */}
          {sent === 'onFile' ? t('signin.newLink.sentOnFile') : t('signin.newLink.sent')}
        </p>
        <p className={styles.intro}>{t('signin.newLink.sentNext')}</p>
        {toLogin}
      </>
    );
  }
  if (state === null) return <p role="status">{t('signin.newLink.checking')}</p>;

  const failureAlert = failure ? (
    <Alert focusOnMount>
      <p>{failure}</p>
    </Alert>
  ) : null;

  if (state === 'unknown' || !token) {
    return (
      <form onSubmit={onEmail} noValidate aria-label={t('signin.newLink.send')}>
        <p className={styles.intro}>
          {token ? t('signin.newLink.unknown') : ''} {t('signin.newLink.noToken')}
        </p>
        {failureAlert}
        <LoginEmailField
          ref={emailRef}
          name="email"
          value={email}
          error={emailError}
          onChange={(e) => {
            setEmail(e.target.value);
            setEmailError(undefined);
          }}
        />
        <div className={styles.actions}>
          <Button type="submit" fullWidth loading={busy}>
            {busy ? t('signin.newLink.sending') : t('signin.newLink.send')}
          </Button>
          {toLogin}
        </div>
      </form>
    );
  }

  if (state === 'valid') {
    return (
      <>
        <p className={styles.intro}>{t('signin.newLink.valid')}</p>
        <Link to={kind === 'invitation' ? paths.setup.getHref(token) : paths.reset.getHref(token)}>
          {t('signin.newLink.openLink')}
        </Link>
      </>
    );
  }

  const explanation = {
    invitation: { expired: t('signin.newLink.expired.invitation'), used: t('signin.newLink.used.invitation') },
    reset: { expired: t('signin.newLink.expired.reset'), used: t('signin.newLink.used.reset') },
  }[kind][state];
  return (
    <>
      <p className={styles.notice}>{explanation}</p>
      <p className={styles.intro}>{t('signin.newLink.offer')}</p>
      {failureAlert}
      <div className={styles.actions}>
        <Button fullWidth loading={busy} onClick={() => void send({ token })}>
          {busy ? t('signin.newLink.sending') : t('signin.newLink.send')}
        </Button>
        {toLogin}
      </div>
    </>
  );
}

/** The page's title for its kind (null: no link in hand), and for a link found to work still. */
export function newLinkTitle(kind: LinkKind | null, state?: LinkState | null) {
  if (state === 'valid') return t('signin.newLink.title.valid');
  if (kind === 'invitation') return t('signin.newLink.title.invitation');
  if (kind === 'reset') return t('signin.newLink.title.reset');
  return t('signin.newLink.title.unknown');
}
