import { TextField, type TextFieldProps } from '@/components/ui/text-field';
import { t } from '@/lib/i18n';

/**
 * The e-mail address the applicant logs in with (the API's username): one field, the same on the login
 * form and in the Reset Password dialog, so a password manager and a phone's keyboard treat both alike.
 */
export function LoginEmailField(props: Omit<TextFieldProps, 'label'>) {
  return (
    <TextField
      label={t('auth.login.username')}
      autoComplete="username"
      inputMode="email"
      autoCapitalize="none"
      spellCheck={false}
      {...props}
    />
  );
}
