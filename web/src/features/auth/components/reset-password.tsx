// The reset page's body (/reset?token=...): checks the e-mailed link first,
// then offers the shared new-password form; a spent or unknown link goes to
// /new-link, which says what happened and sends a new one.
import '@/features/auth/lib/reset-messages';
import { useEffect, useState } from 'react';
import { Navigate } from 'react-router';
import { NewPasswordForm } from '@/components/new-password/new-password-form';
import { paths } from '@/config/paths';
import { defaultCompanyPreferences } from '@/lib/auth';
import { t } from '@/lib/i18n';
import { notify } from '@/lib/notifications';
import { confirmPasswordReset } from '../api/confirm-password-reset';
import { resetLinkRefusal, verifyResetToken, type ResetLinkCheck } from '../api/verify-reset-token';

type ResetPasswordProps = {
  token: string;
  /** After the new password is set, with the link's account when the server named it. */
  onDone: (username?: string) => void;
};

export function ResetPassword({ token, onDone }: ResetPasswordProps) {
  const [check, setCheck] = useState<ResetLinkCheck | null>(null);

  useEffect(() => {
    let current = true;
    setCheck(null);
    void verifyResetToken(token).then((result) => {
      if (current) setCheck(result);
    });
    return () => {
      current = false;
    };
  }, [token]);

  if (!check) return <p role="status">{t('reset.page.checking')}</p>;
  // A spent or expired link: the page that says which and sends a new one (issue 25).
  if (!check.valid) return <Navigate to={paths.newLink.getHref('reset', token)} replace />;

  // The company's minimum is not known before login: the default, which the server checks again with the real one.
  const minLength = defaultCompanyPreferences.company_subject_password_length;
  return (
    <NewPasswordForm
      name={t('reset.page.title')}
      passwordLabel={t('reset.page.newPassword')}
      confirmLabel={t('reset.page.confirmNewPassword')}
      submitLabel={t('reset.page.submit')}
      busyLabel={t('reset.page.submitting')}
      minLength={minLength}
      // The link's account, when the server names it: the identity rule then shows and checks before submit.
      owner={check.username ? { username: check.username } : undefined}
      hint={t('reset.page.hint', { minLength })}
      onSubmit={async (password) => {
        try {
          const answer = await confirmPasswordReset({ token, password });
          notify(answer?.message || t('reset.page.changed'), 'success');
        } catch (error) {
          // The link was spent meanwhile (another tab, an older link): the same page as a spent link.
          const message = resetLinkRefusal(error);
          if (!message) throw error;
          setCheck({ valid: false, message });
          return;
        }
        onDone(check.username);
      }}
    />
  );
}
