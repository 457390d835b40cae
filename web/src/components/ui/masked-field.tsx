// A text field whose value is hidden until the person asks to see it: the
// password and SSN fields. The toggle is a real button inside the box, reached
// by Tab, that reads "Show" or "Hide"; its accessible name says what it will
// do to what ("Show password", then "Hide password"), as GOV.UK's does.
import { useState, type ComponentProps } from 'react';
import { t } from '@/lib/i18n';
import { FieldFrame, fieldStyles as styles, isRequired, useFieldIds, type FieldProps } from './field';

export type MaskedFieldProps = Omit<ComponentProps<'input'>, 'type' | 'children'> &
  FieldProps & {
    /** What the toggle shows, in its accessible name: "password" makes "Show password" / "Hide password". */
    toggleSubject: string;
  };

export function MaskedField({
  label,
  hint,
  error,
  required,
  id,
  className,
  optional,
  toggleSubject,
  'aria-describedby': describedBy,
  ...inputProps
}: MaskedFieldProps) {
  const [shown, setShown] = useState(false);
  const { aria, ...ids } = useFieldIds(id, { hint, error, describedBy });
  return (
    <FieldFrame className={className} label={label} optional={optional} hint={hint} error={error} ids={ids}>
      <div className={styles.withAction}>
        <input
          id={ids.controlId}
          className={styles.control}
          type={shown ? 'text' : 'password'}
          aria-required={isRequired({ required, optional }, inputProps)}
          {...aria}
          {...inputProps}
        />
        <button
          type="button"
          className={styles.action}
          aria-label={t(shown ? 'ui.masked.hideName' : 'ui.masked.showName', { what: toggleSubject })}
          aria-controls={ids.controlId}
          disabled={inputProps.disabled}
          onClick={() => setShown((s) => !s)}
        >
          {shown ? t('ui.masked.hide') : t('ui.masked.show')}
        </button>
      </div>
    </FieldFrame>
  );
}
