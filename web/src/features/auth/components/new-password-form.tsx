// Sets a new password from the e-mailed reset link (/reset?token=...).
import { zodResolver } from '@hookform/resolvers/zod';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { applyServerErrors } from '@/lib/form-errors';
import { notify } from '@/lib/notifications';
import {
  PASSWORD_CHANGED_MESSAGE,
  confirmPasswordReset,
  newPasswordSchema,
  type NewPasswordInput,
} from '../api/confirm-password-reset';
import styles from './auth-card.module.css';

export function NewPasswordForm({ token, onSuccess }: { token: string; onSuccess: () => void }) {
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const formRef = useRef<HTMLFormElement>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isValid, isSubmitting },
  } = useForm<NewPasswordInput>({
    resolver: zodResolver(newPasswordSchema),
    mode: 'onTouched',
    defaultValues: { password: '', confirmPassword: '' },
  });

  const onSubmit = handleSubmit(async ({ password }) => {
    setFormErrors([]);
    try {
      const answer = await confirmPasswordReset({ token, password });
      notify(answer?.message || PASSWORD_CHANGED_MESSAGE, 'success');
      onSuccess();
    } catch (error) {
      // errorFields "password" go onto the field; "token" (expired or used link) above the form.
      setFormErrors(applyServerErrors(error, setError, formRef.current).messages);
    }
  });

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate aria-label="Set a new password">
      {formErrors.length > 0 ? (
        <div role="alert" className={styles.alert}>
          {formErrors.map((message) => (
            <p key={message} style={{ margin: 0 }}>
              {message}
            </p>
          ))}
        </div>
      ) : null}
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <TextField
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
        {...register('confirmPassword')}
      />
      <div className={styles.actions}>
        <Button type="submit" fullWidth disabled={!isValid || isSubmitting}>
          Set Password
        </Button>
      </div>
    </form>
  );
}
