import type { ComponentProps } from 'react';
import { FieldFrame, fieldStyles as styles, isRequired, useFieldIds, type FieldProps } from './field';

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
  optional,
  id,
  className,
  placeholder,
  children,
  'aria-describedby': describedBy,
  ...selectProps
}: SelectProps) {
  const { aria, ...ids } = useFieldIds(id, { hint, error, describedBy });
  return (
    <FieldFrame className={className} label={label} optional={optional} hint={hint} error={error} ids={ids}>
      <select
        id={ids.controlId}
        className={styles.control}
        aria-required={isRequired({ required, optional }, selectProps)}
        {...aria}
        {...selectProps}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {children}
      </select>
    </FieldFrame>
  );
}
