// A set of radio buttons in a fieldset whose legend is the question. Native
// inputs: arrow keys move between them, and spreading register('name') on the
// group gives each input the same name, handlers and ref (react-hook-form
// collects radio refs by name).
import { useId, type ComponentProps, type ReactNode } from 'react';
import { FieldError, FieldHint, isRequired, OptionalMarker } from './field';
import styles from './choice.module.css';

export type RadioOption = { value: string; label: ReactNode; hint?: ReactNode; disabled?: boolean };

export type RadioGroupProps = Omit<ComponentProps<'input'>, 'type' | 'children' | 'value'> & {
  legend: ReactNode;
  options: RadioOption[];
  hint?: ReactNode;
  error?: string;
  required?: boolean;
  /** "(optional)" after the legend. */
  optional?: boolean;
  /** Controlled use without react-hook-form. */
  value?: string;
};

export function RadioGroup({
  legend,
  options,
  hint,
  error,
  required,
  optional,
  value,
  className,
  id,
  ...inputProps
}: RadioGroupProps) {
  const generated = useId();
  const base = id ?? generated;
  const hintId = `${base}-hint`;
  const errorId = `${base}-error`;
  const describedBy = [error ? errorId : '', hint ? hintId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <fieldset
      // radiogroup, not the fieldset's plain group: it may carry aria-required and aria-invalid.
      role="radiogroup"
      className={[styles.group, className ?? ''].filter(Boolean).join(' ')}
      aria-describedby={describedBy}
      aria-invalid={error ? true : undefined}
      aria-required={isRequired({ required, optional }, inputProps)}
    >
      <legend className={styles.legend}>
        {legend}
        {optional ? <OptionalMarker /> : null}
      </legend>
      <FieldHint id={hintId}>{hint}</FieldHint>
      <div className={styles.options}>
        {options.map((option, i) => {
          const optionId = `${base}-${i}`;
          return (
            <div key={option.value} className={styles.row}>
              <input
                id={optionId}
                type="radio"
                className={styles.radio}
                value={option.value}
                disabled={option.disabled || inputProps.disabled}
                aria-describedby={option.hint ? `${optionId}-hint` : undefined}
                {...(value !== undefined ? { checked: value === option.value } : {})}
                {...inputProps}
              />
              <label htmlFor={optionId} className={styles.label}>
                {option.label}
                {option.hint ? (
                  <span id={`${optionId}-hint`} className={styles.optionHint}>
                    {option.hint}
                  </span>
                ) : null}
              </label>
            </div>
          );
        })}
      </div>
      <FieldError id={errorId}>{error}</FieldError>
    </fieldset>
  );
}
