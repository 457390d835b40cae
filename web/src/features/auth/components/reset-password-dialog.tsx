// The Reset Password dialog behind the login page's Forgot Password link
// (loaded only when opened, so the login page stays small). Once sent, it says
// in place what to look for, until the visitor closes it: a snackbar would
// vanish before the e-mail arrives.
import '@/features/auth/lib/reset-messages';
import { useState, type RefObject } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogActions, DialogClose } from '@/components/ui/dialog';
import { errorMessageOf } from '@/lib/api-client';
import { useAppForm } from '@/lib/form';
import { t } from '@/lib/i18n';
import {
  requestPasswordReset,
  requestPasswordResetSchema,
  type RequestPasswordResetInput,
} from '../api/request-password-reset';
import { LoginEmailField } from './login-email-field';

type ResetPasswordDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The dialog is opened without a Radix trigger, so focus goes back here on close. */
  returnFocusTo?: RefObject<HTMLElement | null>;
};

export default function ResetPasswordDialog({ open, onOpenChange, returnFocusTo }: ResetPasswordDialogProps) {
  // Why sending failed: in the dialog until the username is edited or sent again.
  const [failure, setFailure] = useState<string | null>(null);
  // The address the link was sent for, as typed: the dialog then shows what to do next.
  const [sentTo, setSentTo] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isValid, isSubmitting },
  } = useAppForm<RequestPasswordResetInput>(requestPasswordResetSchema, { defaultValues: { username: '' } });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await requestPasswordReset(values);
    } catch (error) {
      setFailure(errorMessageOf(error));
      return;
    }
    setSentTo(values.username);
  });

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      returnFocusTo={returnFocusTo}
      title={t('reset.dialog.title')}
      description={sentTo === null ? t('reset.dialog.description') : undefined}
    >
      {sentTo !== null ? (
        <>
          <Alert tone="success" title={t('reset.dialog.requestSent')} focusOnMount>
            {/* The lifetime is the server's --reset-ttl default (internal/store/store.go). */}
            <p>{t('reset.dialog.checkEmail', { username: sentTo })}</p>
          </Alert>
          <DialogActions>
            <DialogClose asChild>
              <Button>{t('reset.dialog.backToLogin')}</Button>
            </DialogClose>
          </DialogActions>
        </>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          {failure ? (
            <Alert focusOnMount>
              <p>{failure}</p>
            </Alert>
          ) : null}
          <LoginEmailField
            error={errors.username?.message}
            {...register('username', { onChange: () => setFailure(null) })}
          />
          {/* Close is the dialog's X at the top (spec: Close and Send). */}
          <DialogActions>
            <Button type="submit" disabled={!isValid} loading={isSubmitting}>
              {t('reset.dialog.send')}
            </Button>
          </DialogActions>
        </form>
      )}
    </Dialog>
  );
}
