import type { ComponentProps } from 'react';
import { t } from '@/lib/i18n';
import styles from './button.module.css';

export type ButtonVariant = 'primary' | 'secondary' | 'quiet' | 'danger' | 'link';

type ButtonProps = ComponentProps<'button'> & {
  /** primary: the one main action; secondary: others; quiet: low-key (Forgot Password); danger: destroys; link: looks like a link. */
  variant?: ButtonVariant;
  fullWidth?: boolean;
  /** Working: disabled, aria-busy, a spinner; the label may change to say what happens ("Saving…"). */
  loading?: boolean;
};

export function Button({
  variant = 'primary',
  fullWidth = false,
  loading = false,
  className,
  type = 'button',
  disabled,
  children,
  ...props
}: ButtonProps) {
  const classes = [styles.button, styles[variant], fullWidth ? styles.fullWidth : '', className ?? '']
    .filter(Boolean)
    .join(' ');
  return (
    <button type={type} className={classes} disabled={disabled || loading} aria-busy={loading || undefined} {...props}>
      {loading ? <span className={styles.spinner} aria-hidden="true" title={t('ui.button.loading')} /> : null}
      {children}
    </button>
  );
}
