import { t } from '@/lib/i18n';
import { MaskedField, type MaskedFieldProps } from './masked-field';

export type SsnFieldProps = Omit<MaskedFieldProps, 'toggleSubject'> & {
  /** What the toggle's name says it shows, where a form has two SSN fields (the confirmation): each toggle needs its own. */
  toggleSubject?: string;
};

/**
 * A Social Security number, masked like a password until shown. The value is
 * kept as typed (digits, with or without dashes, like 123-45-6789): the
 * personal rules read its digits, as they did for the plain field.
 */
export function SsnField({ toggleSubject = t('ui.ssnField.toggleSubject'), ...props }: SsnFieldProps) {
  return (
    <MaskedField
      inputMode="numeric"
      autoComplete="off"
      spellCheck={false}
      maxLength={11}
      toggleSubject={toggleSubject}
      {...props}
    />
  );
}
