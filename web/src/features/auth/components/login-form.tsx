// The login form (spec sections 2 and 5). Also meant for the setup wizard's
// Login step, where the username is prefilled and read-only.
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { PasswordField } from '@/components/ui/password-field';
import { loginWithPassword } from '@/lib/auth';
import { useAppForm } from '@/lib/form';
import { t } from '@/lib/i18n';
import { notify } from '@/lib/notifications';
import { loginErrorMessage } from '../lib/login-errors';
import type { LoginFormValues } from '../lib/login-schema';
import { LoginEmailField } from './login-email-field';
import styles from './auth-card.module.css';

const ResetPasswordDialog = lazy(() => import('./reset-password-dialog'));
// The one-time code's form loads when the visitor asks for it (the login route's budget).
const CodeLoginForm = lazy(() => import('./code-login-form'));

// The schema (and zod with it) loads at the first focus in the form, not with
// /login: the login route's budget (scripts/check-bundle.mjs).
const loadLoginSchema = () => import('../lib/login-schema').then((m) => m.loginInputSchema);

type LoginFormProps = {
  onSuccess: () => void;
  onFailed?: (error: unknown) => void;
  username?: string;
  usernameReadOnly?: boolean;
  /** The password field takes the focus on arrival, the username being known (after a reset). */
  focusPassword?: boolean;
  /** Offers "Email me a sign-in code" (the login page; not the setup wizard's Login step). */
  allowCode?: boolean;
};

export function LoginForm({
  onSuccess,
  onFailed,
  username = '',
  usernameReadOnly = false,
  focusPassword = false,
  allowCode = false,
}: LoginFormProps) {
  const [resetOpen, setResetOpen] = useState(false);
  const [codeMode, setCodeMode] = useState(false);
  // Why the last login failed: on the page until the visitor edits a field or submits again.
  const [failure, setFailure] = useState<string | null>(null);
  const forgotRef = useRef<HTMLButtonElement>(null);
  const {
    register,
    handleSubmit,
    watch,
    setFocus,
    formState: { errors, isSubmitting },
  } = useAppForm<LoginFormValues>(loadLoginSchema, { defaultValues: { username, password: '' } });
  // Both fields filled is all the schema asks; read here so that the submit
  // button's state does not need the schema before the visitor acts.
  const [typedUsername, typedPassword] = watch(['username', 'password']);
  const filled = typedUsername.trim() !== '' && typedPassword !== '';

  const clearFailure = () => setFailure(null);

  useEffect(() => {
    if (focusPassword) setFocus('password');
  }, [focusPassword, setFocus]);

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await loginWithPassword(values);
    } catch (error) {
      // Wrong credentials, throttling (429), a busy server (503): said plainly, in the form.
      setFailure(loginErrorMessage(error));
      onFailed?.(error);
      return;
    }
    notify(t('errors.loggedIn'), 'success');
    onSuccess();
  });

  if (codeMode) {
    return (
      <Suspense fallback={null}>
        <CodeLoginForm username={typedUsername.trim()} onSuccess={onSuccess} onUsePassword={() => setCodeMode(false)} />
      </Suspense>
    );
  }

  return (
    <>
      <form onSubmit={onSubmit} onFocus={() => void loadLoginSchema()} noValidate aria-label={t('auth.login.formName')}>
        {failure ? (
          <Alert focusOnMount>
            <p>{failure}</p>
          </Alert>
        ) : null}
        <LoginEmailField
          readOnly={usernameReadOnly}
          error={errors.username?.message}
          {...register('username', { onChange: clearFailure })}
        />
        <PasswordField
          label={t('auth.login.password')}
          autoComplete="current-password"
          error={errors.password?.message}
          {...register('password', { onChange: clearFailure })}
        />
        <div className={styles.actions}>
          <Button type="submit" fullWidth disabled={!filled} loading={isSubmitting}>
            {isSubmitting ? t('auth.login.submitting') : t('auth.login.submit')}
          </Button>
          <Button ref={forgotRef} variant="quiet" onClick={() => setResetOpen(true)}>
            {t('auth.login.forgotPassword')}
          </Button>
          {allowCode ? (
            <Button variant="quiet" onClick={() => setCodeMode(true)}>
              {t('auth.login.useCode')}
            </Button>
          ) : null}
        </div>
      </form>
      {resetOpen ? (
        <Suspense fallback={null}>
          <ResetPasswordDialog open={resetOpen} onOpenChange={setResetOpen} returnFocusTo={forgotRef} />
        </Suspense>
      ) : null}
    </>
  );
}
