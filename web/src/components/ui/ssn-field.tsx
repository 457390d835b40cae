import { t } from '@/lib/i18n';
import { MaskedField, type MaskedFieldProps } from './masked-field';

export type SsnFieldProps = Omit<MaskedFieldProps, 'toggleLabel' | 'showText' | 'hideText'> & {
  /** The Show toggle's name where a form has two SSN fields (the confirmation): each toggle needs its own. */
  toggleLabel?: string;
};

/**
 * A Social Security number, masked like a password until shown. The value is
 * kept as typed (digits, with or without dashes, like 123-45-6789): the
 * personal rules read its digits, as they did for the plain field.
 */
export function SsnField({ toggleLabel = t('ui.ssnField.toggle'), ...props }: SsnFieldProps) {
  return (
    <MaskedField
      inputMode="numeric"
      autoComplete="off"
      spellCheck={false}
      maxLength={11}
      toggleLabel={toggleLabel}
      showText={t('ui.masked.show')}
      hideText={t('ui.masked.hide')}
      {...props}
    />
  );
}
