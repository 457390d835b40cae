// The Reset Password dialog behind the login page's Forgot Password link
// (loaded only when opened, so the login page stays small).
import { useState, type RefObject } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogActions, DialogClose } from '@/components/ui/dialog';
import { TextField } from '@/components/ui/text-field';
import { errorMessageOf } from '@/lib/api-client';
import { useAppForm } from '@/lib/form';
import { t } from '@/lib/i18n';
import { notify } from '@/lib/notifications';
import {
  REQUEST_SENT_MESSAGE,
  requestPasswordReset,
  requestPasswordResetSchema,
  type RequestPasswordResetInput,
} from '../api/request-password-reset';

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
  } = useAppForm<RequestPasswordResetInput>(requestPasswordResetSchema, { defaultValues: { username: '' } });

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
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      returnFocusTo={returnFocusTo}
      title={t('auth.resetDialog.title')}
      description={t('auth.resetDialog.description')}
    >
      <form onSubmit={onSubmit} noValidate>
        {failure ? (
          <Alert focusOnMount>
            <p>{failure}</p>
          </Alert>
        ) : null}
        <TextField
          label={t('auth.login.username')}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          error={errors.username?.message}
          {...register('username', { onChange: () => setFailure(null) })}
        />
        <DialogActions>
          <DialogClose asChild>
            <Button variant="link">{t('auth.resetDialog.close')}</Button>
          </DialogClose>
          <Button type="submit" disabled={!isValid} loading={isSubmitting}>
            {t('auth.resetDialog.send')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
