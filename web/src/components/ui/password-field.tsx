import { t } from '@/lib/i18n';
import { MaskedField, type MaskedFieldProps } from './masked-field';

export type PasswordFieldProps = Omit<MaskedFieldProps, 'toggleSubject'>;

/** A password input with a Show/Hide toggle (phones make typos easy and hard to see): every password field of the app. */
export function PasswordField(props: PasswordFieldProps) {
  return (
    <MaskedField
      autoCapitalize="none"
      spellCheck={false}
      toggleSubject={t('ui.passwordField.toggleSubject')}
      {...props}
    />
  );
}
