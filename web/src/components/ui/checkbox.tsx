// The one checkbox of the app: a native input (the lightest, and register()
// works on it as is) drawn in the theme colour, with its label beside it and
// an optional hint and error under it.
import type { ComponentProps, ReactNode } from 'react';
import { FieldError, FieldHint, useFieldIds } from './field';
import styles from './choice.module.css';

export type CheckboxProps = Omit<ComponentProps<'input'>, 'type' | 'children'> & {
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
};

export function Checkbox({
  label,
  hint,
  error,
  id,
  className,
  'aria-describedby': describedBy,
  ...inputProps
}: CheckboxProps) {
  const { controlId, hintId, errorId, aria } = useFieldIds(id, { hint, error, describedBy });
  return (
    <div className={[styles.choice, className ?? ''].filter(Boolean).join(' ')}>
      <div className={styles.row}>
        <input id={controlId} type="checkbox" className={styles.box} {...aria} {...inputProps} />
        <label htmlFor={controlId} className={styles.label}>
          {label}
        </label>
      </div>
      <div className={styles.under}>
        <FieldHint id={hintId}>{hint}</FieldHint>
        <FieldError id={errorId}>{error}</FieldError>
      </div>
    </div>
  );
}
