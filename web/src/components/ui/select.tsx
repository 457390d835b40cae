import type { ComponentProps } from 'react';
import { FieldError, FieldHint, FieldLabel, fieldStyles as styles, useFieldIds, type FieldProps } from './field';

export type SelectProps = ComponentProps<'select'> &
  FieldProps & {
    /** A first, empty choice ("Choose a state"); its value is ''. */
    placeholder?: string;
  };

/**
 * A native <select> in the look of TextField: the lightest choice, and on
 * phones the system's own picker.
 */
export function Select({
  label,
  hint,
  error,
  required,
  id,
  className,
  placeholder,
  children,
  'aria-describedby': describedBy,
  ...selectProps
}: SelectProps) {
  const { controlId, hintId, errorId, aria } = useFieldIds(id, { hint, error, describedBy });
  return (
    <div className={[styles.field, className ?? ''].filter(Boolean).join(' ')}>
      <FieldLabel htmlFor={controlId} required={required}>
        {label}
      </FieldLabel>
      <FieldHint id={hintId}>{hint}</FieldHint>
      <select
        id={controlId}
        className={styles.control}
        aria-required={required || undefined}
        {...aria}
        {...selectProps}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {children}
      </select>
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}
