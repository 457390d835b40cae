// The Reset Password dialog behind the login page's Forgot Password link
// (loaded only when opened, so the login page stays small).
import * as Dialog from '@radix-ui/react-dialog';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState, type RefObject } from 'react';
import { useForm } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { errorMessageOf } from '@/lib/api-client';
import { notify } from '@/lib/notifications';
import {
  REQUEST_SENT_MESSAGE,
  requestPasswordReset,
  requestPasswordResetSchema,
  type RequestPasswordResetInput,
} from '../api/request-password-reset';
import styles from './dialog.module.css';

type ResetPasswordDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The dialog is opened without a Radix trigger, so focus goes back here on close. */
  returnFocusTo?: RefObject<HTMLElement | null>;
};

export default function ResetPasswordDialog({ open, onOpenChange, returnFocusTo }: ResetPasswordDialogProps) {
  // Why sending failed: in the dialog until the username is edited or sent again.
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isValid, isSubmitting },
  } = useForm<RequestPasswordResetInput>({
    resolver: zodResolver(requestPasswordResetSchema),
    mode: 'onTouched',
    defaultValues: { username: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await requestPasswordReset(values);
    } catch (error) {
      setFailure(errorMessageOf(error));
      return;
    }
    notify(REQUEST_SENT_MESSAGE, 'success');
    onOpenChange(false);
  });

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          className={styles.content}
          onCloseAutoFocus={(event) => {
            if (returnFocusTo?.current) {
              event.preventDefault();
              returnFocusTo.current.focus();
            }
          }}
        >
          <Dialog.Title className={styles.title}>Reset Password</Dialog.Title>
          <Dialog.Description className={styles.description}>
            Enter your username and we will e-mail you a link to set a new password.
          </Dialog.Description>
          <form onSubmit={onSubmit} noValidate>
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
              error={errors.username?.message}
              {...register('username', { onChange: () => setFailure(null) })}
            />
            <div className={styles.buttons}>
              <Dialog.Close asChild>
                <Button variant="secondary">Close</Button>
              </Dialog.Close>
              <Button type="submit" disabled={!isValid || isSubmitting}>
                Send
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
