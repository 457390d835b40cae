// The login form (spec sections 2 and 5). Also meant for the setup wizard's
// Login step, where the username is prefilled and read-only.
import { zodResolver } from '@hookform/resolvers/zod';
import { lazy, Suspense, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod/mini';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { authMessages, loginWithPassword } from '@/lib/auth';
import { notify } from '@/lib/notifications';
import { loginErrorMessage } from '../lib/login-errors';
import styles from './auth-card.module.css';

const ResetPasswordDialog = lazy(() => import('./reset-password-dialog'));

export const loginInputSchema = z.object({
  username: z.string().check(z.trim(), z.minLength(1, 'Username is required')),
  password: z.string().check(z.minLength(1, 'Password is required')),
});

export type LoginFormValues = z.infer<typeof loginInputSchema>;

type LoginFormProps = {
  onSuccess: () => void;
  onFailed?: (error: unknown) => void;
  username?: string;
  usernameReadOnly?: boolean;
};

export function LoginForm({ onSuccess, onFailed, username = '', usernameReadOnly = false }: LoginFormProps) {
  const [resetOpen, setResetOpen] = useState(false);
  // Why the last login failed: on the page until the visitor edits a field or submits again.
  const [failure, setFailure] = useState<string | null>(null);
  const forgotRef = useRef<HTMLButtonElement>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isValid, isSubmitting },
  } = useForm<LoginFormValues>({
    resolver: zodResolver(loginInputSchema),
    // Messages appear only once a field has been touched (spec section 5).
    mode: 'onTouched',
    defaultValues: { username, password: '' },
  });

  const clearFailure = () => setFailure(null);

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
    notify(authMessages.loggedIn, 'success');
    onSuccess();
  });

  return (
    <>
      <form onSubmit={onSubmit} noValidate aria-label="Login">
        {failure ? (
          <Alert focusOnMount>
            <p>{failure}</p>
          </Alert>
        ) : null}
        <TextField
          label="Username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          readOnly={usernameReadOnly}
          error={errors.username?.message}
          {...register('username', { onChange: clearFailure })}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...register('password', { onChange: clearFailure })}
        />
        <div className={styles.actions}>
          <Button type="submit" fullWidth disabled={!isValid || isSubmitting}>
            {isSubmitting ? 'Logging in…' : 'Login'}
          </Button>
          <Button ref={forgotRef} variant="link" onClick={() => setResetOpen(true)}>
            Forgot Password
          </Button>
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
