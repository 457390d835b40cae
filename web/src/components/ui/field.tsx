// What every form field shares: a label ("(optional)" after it where an answer
// may be left out; required fields are unmarked, as on GOV.UK, but carry
// aria-required, so a screen reader says what the eye infers), a hint,
// and the error message right under the control, tied to it with
// aria-describedby and aria-invalid so a screen reader reads them together.
import { useId, type ReactNode } from 'react';
import { t } from '@/lib/i18n';
import styles from './field.module.css';

export type FieldProps = {
  label: ReactNode;
  /** Help shown under the label and read with the control. */
  hint?: ReactNode;
  /** The message of a broken rule: shown under the control and read with it. */
  error?: string;
  /**
   * aria-required on the control; the label stays unmarked. Unset, a field is required unless it is
   * `optional` (or read-only or disabled): the one prop says both. False for a control that is no
   * answer (a search box).
   */
  required?: boolean;
  /** "(optional)" after the label: the one way a field says it may be left empty. */
  optional?: boolean;
};

/** Whether a field is required: as told, else whenever it is not optional and can be answered. */
export function isRequired(
  { required, optional }: Pick<FieldProps, 'required' | 'optional'>,
  control: { readOnly?: boolean; disabled?: boolean } = {},
): true | undefined {
  return (required ?? (!optional && !control.readOnly && !control.disabled)) || undefined;
}

/** The ids and aria attributes that tie a control to its label, hint and error. */
export function useFieldIds(
  id: string | undefined,
  { hint, error, describedBy }: { hint?: ReactNode; error?: string; describedBy?: string },
) {
  const generated = useId();
  const controlId = id ?? generated;
  const hintId = `${controlId}-hint`;
  const errorId = `${controlId}-error`;
  // The message first, then the hint, then what the page adds (a rules list).
  const ids = [error ? errorId : '', hint ? hintId : '', describedBy ?? ''].filter(Boolean).join(' ');
  return {
    controlId,
    hintId,
    errorId,
    aria: {
      'aria-invalid': error ? true : undefined,
      'aria-describedby': ids || undefined,
    } as const,
  };
}

/** The frame of one field: its label, hint, the control (children) and its error, in reading order. */
export function FieldFrame({
  className,
  label,
  optional,
  hint,
  error,
  ids,
  children,
}: Omit<FieldProps, 'required'> & {
  className?: string;
  ids: { controlId: string; hintId: string; errorId: string };
  children: ReactNode;
}) {
  return (
    <div className={[styles.field, className ?? ''].filter(Boolean).join(' ')}>
      <FieldLabel htmlFor={ids.controlId} optional={optional}>
        {label}
      </FieldLabel>
      <FieldHint id={ids.hintId}>{hint}</FieldHint>
      {children}
      <FieldError id={ids.errorId}>{error}</FieldError>
    </div>
  );
}

export function FieldLabel({
  htmlFor,
  children,
  optional,
}: {
  htmlFor: string;
  children: ReactNode;
  optional?: boolean;
}) {
  return (
    <label className={styles.label} htmlFor={htmlFor}>
      {children}
      {optional ? <OptionalMarker /> : null}
    </label>
  );
}

/** " (optional)" after a label or legend, read with it. */
export function OptionalMarker() {
  return (
    <>
      {' '}
      <span className={styles.optional}>{t('ui.field.optional')}</span>
    </>
  );
}

export function FieldHint({ id, children }: { id: string; children?: ReactNode }) {
  if (!children) return null;
  return (
    <p id={id} className={styles.hint}>
      {children}
    </p>
  );
}

export function FieldError({ id, children }: { id: string; children?: string }) {
  if (!children) return null;
  return (
    <p id={id} className={styles.error}>
      <span aria-hidden="true" className={styles.errorIcon} />
      {children}
    </p>
  );
}

export { styles as fieldStyles };
