import type { ComponentProps, ReactNode } from 'react';
import styles from './fieldset.module.css';

type FieldsetProps = ComponentProps<'fieldset'> & { legend: ReactNode; hint?: ReactNode };

/** A titled group of fields ("Your name", "Identity"): the legend is read before each field in it. */
export function Fieldset({ legend, hint, className, children, ...props }: FieldsetProps) {
  return (
    <fieldset className={[styles.fieldset, className ?? ''].filter(Boolean).join(' ')} {...props}>
      <legend className={styles.legend}>{legend}</legend>
      {hint ? <p className={styles.hint}>{hint}</p> : null}
      {children}
    </fieldset>
  );
}
