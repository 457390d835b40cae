import type { ComponentProps } from 'react';
import { FieldError, FieldHint, FieldLabel, fieldStyles as styles, useFieldIds, type FieldProps } from './field';

export type TextFieldProps = Omit<ComponentProps<'input'>, 'children'> & FieldProps;

/** A labelled text input; register() from react-hook-form spreads onto it (the ref reaches the input). */
export function TextField({
  label,
  hint,
  error,
  required,
  id,
  className,
  'aria-describedby': describedBy,
  ...inputProps
}: TextFieldProps) {
  const { controlId, hintId, errorId, aria } = useFieldIds(id, { hint, error, describedBy });
  return (
    <div className={[styles.field, className ?? ''].filter(Boolean).join(' ')}>
      <FieldLabel htmlFor={controlId} required={required}>
        {label}
      </FieldLabel>
      <FieldHint id={hintId}>{hint}</FieldHint>
      <input
        id={controlId}
        className={styles.control}
        aria-required={required || undefined}
        {...aria}
        {...inputProps}
      />
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}
