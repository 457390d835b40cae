import type { ComponentProps } from 'react';
import { FieldFrame, fieldStyles as styles, isRequired, useFieldIds, type FieldProps } from './field';

export type TextFieldProps = Omit<ComponentProps<'input'>, 'children'> & FieldProps;

/** A labelled text input; register() from react-hook-form spreads onto it (the ref reaches the input). */
export function TextField({
  label,
  hint,
  error,
  required,
  optional,
  id,
  className,
  'aria-describedby': describedBy,
  ...inputProps
}: TextFieldProps) {
  const { aria, ...ids } = useFieldIds(id, { hint, error, describedBy });
  return (
    <FieldFrame className={className} label={label} optional={optional} hint={hint} error={error} ids={ids}>
      <input
        id={ids.controlId}
        className={styles.control}
        aria-required={isRequired({ required, optional }, inputProps)}
        {...aria}
        {...inputProps}
      />
    </FieldFrame>
  );
}

export type TextAreaFieldProps = Omit<ComponentProps<'textarea'>, 'children'> & FieldProps;

/** TextField for several lines (a reason for leaving, notes): the same frame, control style and wiring. */
export function TextAreaField({
  label,
  hint,
  error,
  required,
  optional,
  id,
  className,
  'aria-describedby': describedBy,
  ...props
}: TextAreaFieldProps) {
  const { aria, ...ids } = useFieldIds(id, { hint, error, describedBy });
  return (
    <FieldFrame className={className} label={label} optional={optional} hint={hint} error={error} ids={ids}>
      <textarea
        id={ids.controlId}
        className={styles.control}
        rows={4}
        aria-required={isRequired({ required, optional }, props)}
        {...aria}
        {...props}
      />
    </FieldFrame>
  );
}
