// A text field whose value is hidden until the person asks to see it: the
// password and SSN fields. The toggle is a real button inside the box, with
// aria-pressed, so it is reached by Tab and announced as a switch.
import { useState, type ComponentProps } from 'react';
import { FieldFrame, fieldStyles as styles, useFieldIds, type FieldProps } from './field';

export type MaskedFieldProps = Omit<ComponentProps<'input'>, 'type' | 'children'> &
  FieldProps & {
    /** The toggle's accessible name ("Show password"); its visible text is Show/Hide. */
    toggleLabel: string;
    showText: string;
    hideText: string;
  };

export function MaskedField({
  label,
  hint,
  error,
  required,
  id,
  className,
  toggleLabel,
  showText,
  hideText,
  'aria-describedby': describedBy,
  ...inputProps
}: MaskedFieldProps) {
  const [shown, setShown] = useState(false);
  const { aria, ...ids } = useFieldIds(id, { hint, error, describedBy });
  return (
    <FieldFrame className={className} label={label} required={required} hint={hint} error={error} ids={ids}>
      <div className={styles.withAction}>
        <input
          id={ids.controlId}
          className={styles.control}
          type={shown ? 'text' : 'password'}
          aria-required={required || undefined}
          {...aria}
          {...inputProps}
        />
        <button
          type="button"
          className={styles.action}
          aria-label={toggleLabel}
          aria-controls={ids.controlId}
          aria-pressed={shown}
          disabled={inputProps.disabled}
          onClick={() => setShown((s) => !s)}
        >
          {shown ? hideText : showText}
        </button>
      </div>
    </FieldFrame>
  );
}
