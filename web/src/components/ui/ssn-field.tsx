import { t } from '@/lib/i18n';
import { MaskedField, type MaskedFieldProps } from './masked-field';

export type SsnFieldProps = Omit<MaskedFieldProps, 'toggleLabel' | 'showText' | 'hideText'>;

/**
 * A Social Security number, masked like a password until shown. The value is
 * kept as typed (digits, with or without dashes, like 123-45-6789): the
 * personal rules read its digits, as they did for the plain field.
 */
export function SsnField(props: SsnFieldProps) {
  return (
    <MaskedField
      inputMode="numeric"
      autoComplete="off"
      spellCheck={false}
      maxLength={11}
      toggleLabel={t('ui.ssnField.toggle')}
      showText={t('ui.masked.show')}
      hideText={t('ui.masked.hide')}
      {...props}
    />
  );
}
