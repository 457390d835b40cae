// A message about a form or page that stays until the visitor acts (edits a
// field or submits again), unlike a snackbar, which is for confirmations.
import { useEffect, useRef, type ReactNode } from 'react';
import { t } from '@/lib/i18n';
import styles from './alert.module.css';

export type AlertTone = 'error' | 'warning' | 'info' | 'success';

type AlertProps = {
  children: ReactNode;
  /** error and warning are alerts (announced at once); info and success are status messages. */
  tone?: AlertTone;
  title?: ReactNode;
  /** Takes focus when it appears, so keyboard and screen-reader users land on it. */
  focusOnMount?: boolean;
  className?: string;
};

const icons: Record<AlertTone, string> = { error: '!', warning: '!', info: 'i', success: '✓' };

export function Alert({ children, tone = 'error', title, focusOnMount = false, className }: AlertProps) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focusOnMount) ref.current?.focus();
  }, [focusOnMount]);
  const urgent = tone === 'error' || tone === 'warning';
  return (
    <div
      ref={ref}
      role={urgent ? 'alert' : 'status'}
      tabIndex={-1}
      className={[styles.alert, styles[tone], className ?? ''].filter(Boolean).join(' ')}
      data-tone={tone}
    >
      {/* The sign is drawn by CSS from data-icon: not text, so the alert's text is only its message. */}
      <span className={styles.icon} aria-hidden="true" data-icon={icons[tone]} />
      <div className={styles.body}>
        {title ? <p className={styles.title}>{title}</p> : null}
        {children}
      </div>
    </div>
  );
}

export type SummaryField = { id: string; label: string };

type ErrorSummaryProps = {
  /** Messages that belong to no field of the form. */
  messages?: string[];
  /** Fields in error: each a link that moves focus to the field (its message is shown there, once). */
  fields?: SummaryField[];
  /** Takes focus when shown: pass true after a failed submit, so the reader starts at the list of problems. */
  focusOnMount?: boolean;
};

/** The problems of a failed save, at the top of the form. */
export function ErrorSummary({ messages = [], fields = [], focusOnMount = false }: ErrorSummaryProps) {
  if (messages.length === 0 && fields.length === 0) return null;
  return (
    <Alert focusOnMount={focusOnMount}>
      {messages.map((message) => (
        <p key={message}>{message}</p>
      ))}
      {fields.length > 0 ? (
        <>
          <p className={styles.title}>
            {fields.length === 1 ? t('ui.errorSummary.one') : t('ui.errorSummary.many', { count: fields.length })}
          </p>
          <ul className={styles.list}>
            {fields.map((field) => (
              <li key={field.id}>
                <a
                  href={`#${field.id}`}
                  onClick={(event) => {
                    // Focus, not just scroll: the field's message is read with it.
                    event.preventDefault();
                    document.getElementById(field.id)?.focus();
                  }}
                >
                  {field.label}
                </a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </Alert>
  );
}
