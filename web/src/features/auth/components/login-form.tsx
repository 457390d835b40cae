// The login form (spec sections 2 and 5). Also meant for the setup wizard's
// Login step, where the username is prefilled and read-only.
import { lazy, Suspense, useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { PasswordField } from '@/components/ui/password-field';
import { loginWithPassword } from '@/lib/auth';
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

type Field = keyof LoginFormValues;
type FieldErrors = Partial<Record<Field, string>>;

/** The schema's first message of each field; the values as the schema gives them back (the address trimmed). */
async function validate(values: LoginFormValues): Promise<{ values?: LoginFormValues; errors: FieldErrors }> {
  const result = await (await loadLoginSchema()).safeParseAsync(values);
  if (result.success) return { values: result.data, errors: {} };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as Field;
    errors[field] ??= issue.message;
  }
  return { errors };
}

/**
 * The two fields' values, messages and submission, as useAppForm (lib/form.ts) would keep them: a message
 * appears once its field has been touched (left) or the form submitted, then follows every change; a
 * refused submit focuses the first field in error. Written out here because react-hook-form would cost
 * /login 14 kB gzip (scripts/check-bundle.mjs); every other form uses useAppForm.
 */
function useLoginFields(username: string) {
  const [values, setValues] = useState<LoginFormValues>({ username, password: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [isSubmitting, setSubmitting] = useState(false);
  const touched = useRef(new Set<Field>());
  const submitted = useRef(false);
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});

  // Shows the messages of the fields the visitor has left (or all after a submit), as the values stand.
  const showErrors = async (next: LoginFormValues) => {
    const found = (await validate(next)).errors;
    const shown = (field: Field) => submitted.current || touched.current.has(field);
    setErrors({
      username: shown('username') ? found.username : undefined,
      password: shown('password') ? found.password : undefined,
    });
  };

  const field = (name: Field, onEdit: () => void) => ({
    name,
    value: values[name],
    error: errors[name],
    ref: (input: HTMLInputElement | null) => {
      inputs.current[name] = input;
    },
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      onEdit();
      const next = { ...values, [name]: event.target.value };
      setValues(next);
      if (submitted.current || touched.current.has(name)) void showErrors(next);
    },
    onBlur: () => {
      touched.current.add(name);
      void showErrors(values);
    },
  });

  const handleSubmit = (onValid: (values: LoginFormValues) => Promise<void>) => async (event: FormEvent) => {
    event.preventDefault();
    submitted.current = true;
    const result = await validate(values);
    setErrors(result.errors);
    if (!result.values) {
      const first = (['username', 'password'] as const).find((name) => result.errors[name]);
      if (first) inputs.current[first]?.focus();
      return;
    }
    setSubmitting(true);
    try {
      await onValid(result.values);
    } finally {
      setSubmitting(false);
    }
  };

  const setFocus = (name: Field) => inputs.current[name]?.focus();
  return { values, field, handleSubmit, setFocus, isSubmitting };
}

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
  const { values, field, handleSubmit, setFocus, isSubmitting } = useLoginFields(username);
  // Both fields filled is all the schema asks; read here so that the submit
  // button's state does not need the schema before the visitor acts.
  const { username: typedUsername, password: typedPassword } = values;
  const filled = typedUsername.trim() !== '' && typedPassword !== '';

  const clearFailure = () => setFailure(null);

  useEffect(() => {
    if (focusPassword) setFocus('password');
    // On arrival only, as before a visitor acts.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusPassword]);

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
        <LoginEmailField readOnly={usernameReadOnly} {...field('username', clearFailure)} />
        <PasswordField
          label={t('auth.login.password')}
          autoComplete="current-password"
          {...field('password', clearFailure)}
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
