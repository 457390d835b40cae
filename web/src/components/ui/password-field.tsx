import { t } from '@/lib/i18n';
import { MaskedField, type MaskedFieldProps } from './masked-field';

export type PasswordFieldProps = Omit<MaskedFieldProps, 'toggleLabel' | 'showText' | 'hideText'>;

/** A password input with a Show/Hide toggle (phones make typos easy and hard to see). */
export function PasswordField(props: PasswordFieldProps) {
  return (
    <MaskedField
      autoCapitalize="none"
      spellCheck={false}
      toggleLabel={t('ui.passwordField.toggle')}
      showText={t('ui.masked.show')}
      hideText={t('ui.masked.hide')}
      {...props}
    />
  );
}
