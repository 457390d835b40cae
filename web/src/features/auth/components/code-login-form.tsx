// Sign in with a one-time code (issue 25): the e-mail address, then the six
// digits from the mail or text. Loads lazily from the login form, so /login's
// first load stays within its budget (scripts/check-bundle.mjs).
import '../lib/signin-messages';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { ApiError } from '@/lib/api-client';
import { t } from '@/lib/i18n';
import { notify } from '@/lib/notifications';
import { loginWithCode, normalizeCode, requestLoginCode, type CodeChannel } from '../api/login-code';
import { loginErrorMessage } from '../lib/login-errors';
import { LoginEmailField } from './login-email-field';
import styles from './auth-card.module.css';
import own from './code-login-form.module.css';

type CodeLoginFormProps = {
  username?: string;
  onSuccess: () => void;
  /** Back to the password form. */
  onUsePassword: () => void;
};

export default function CodeLoginForm({ username = '', onSuccess, onUsePassword }: CodeLoginFormProps) {
  const [email, setEmail] = useState(username);
  const [emailError, setEmailError] = useState<string>();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string>();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    (sentTo ? codeRef : emailRef).current?.focus();
  }, [sentTo]);

  const send = async (channel: CodeChannel) => {
    setFailure(null);
    const address = email.trim();
    if (!address) {
      setEmailError(t('signin.code.emailRequired'));
      emailRef.current?.focus();
      return;
    }
    setEmailError(undefined);
    setBusy(true);
    try {
      await requestLoginCode({ username: address, channel });
      setSentTo(address);
      setCode('');
      setCodeError(undefined);
    } catch (error) {
      setFailure(loginErrorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  const onRequest = (event: FormEvent) => {
    event.preventDefault();
    void send('email');
  };

  const onSignIn = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const digits = normalizeCode(code);
    const problem = !digits
      ? t('signin.code.codeRequired')
      : /^\d{6}$/.test(digits)
        ? undefined
        : t('signin.code.codeFormat');
    setCodeError(problem);
    if (problem || !sentTo) {
      codeRef.current?.focus();
      return;
    }
    setBusy(true);
    try {
      await loginWithCode({ username: sentTo, code: digits });
    } catch (error) {
      setBusy(false);
      if (error instanceof ApiError && error.status === 401) {
        setCodeError(t('signin.code.incorrect'));
        codeRef.current?.focus();
      } else {
        // Throttled (429) or busy (503): said as the password form says it.
        setFailure(loginErrorMessage(error));
      }
      return;
    }
    notify(t('errors.loggedIn'), 'success');
    onSuccess();
  };

  const failureAlert = failure ? (
    <Alert focusOnMount>
      <p>{failure}</p>
    </Alert>
  ) : null;

  if (!sentTo) {
    return (
      <form onSubmit={onRequest} noValidate aria-label={t('signin.code.formName')}>
        <h2 className={styles.subtitle}>{t('signin.code.title')}</h2>
        <p className={styles.intro}>{t('signin.code.intro')}</p>
        {failureAlert}
        <LoginEmailField
          ref={emailRef}
          name="username"
          value={email}
          error={emailError}
          onChange={(e) => {
            setEmail(e.target.value);
            setEmailError(undefined);
          }}
        />
        <div className={styles.actions}>
          <Button type="submit" fullWidth loading={busy}>
            {busy ? t('signin.code.sending') : t('signin.code.emailMe')}
          </Button>
          <Button variant="secondary" fullWidth disabled={busy} onClick={() => void send('sms')}>
            {t('signin.code.textMe')}
          </Button>
          <p className={styles.hint}>{t('signin.code.textHint')}</p>
          <Button variant="quiet" onClick={onUsePassword}>
            {t('signin.code.usePassword')}
          </Button>
        </div>
      </form>
    );
  }

  return (
    <form onSubmit={onSignIn} noValidate aria-label={t('signin.code.formName')}>
      <h2 className={styles.subtitle}>{t('signin.code.title')}</h2>
      <p className={`${styles.notice} ${own.sentTo}`} role="status">
        {t('signin.code.sent', { email: sentTo })}
      </p>
      {failureAlert}
      <TextField
        ref={codeRef}
        label={t('signin.code.codeLabel')}
        hint={t('signin.code.codeHint')}
        name="code"
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={9}
        spellCheck={false}
        value={code}
        error={codeError}
        onChange={(e) => {
          setCode(e.target.value);
          setCodeError(undefined);
        }}
      />
      <div className={styles.actions}>
        <Button type="submit" fullWidth loading={busy}>
          {busy ? t('signin.code.submitting') : t('signin.code.submit')}
        </Button>
        <Button variant="secondary" fullWidth disabled={busy} onClick={() => void send('email')}>
          {t('signin.code.resend')}
        </Button>
        <Button variant="quiet" onClick={() => setSentTo(null)}>
          {t('signin.code.otherAddress')}
        </Button>
        <Button variant="quiet" onClick={onUsePassword}>
          {t('signin.code.usePassword')}
        </Button>
      </div>
    </form>
  );
}
