// A message about a form that stays on the page until the visitor acts (edits
// a field or submits again), unlike a snackbar, which is for confirmations.
import { useEffect, useRef, type ReactNode } from 'react';
import styles from './alert.module.css';

type AlertProps = {
  children: ReactNode;
  /** Takes focus when it appears, so keyboard and screen-reader users land on it. */
  focusOnMount?: boolean;
};

export function Alert({ children, focusOnMount = false }: AlertProps) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focusOnMount) ref.current?.focus();
  }, [focusOnMount]);
  return (
    <div ref={ref} role="alert" tabIndex={-1} className={styles.alert}>
      {children}
    </div>
  );
}

export type SummaryField = { id: string; label: string };

type ErrorSummaryProps = {
  /** Messages that belong to no field of the form. */
  messages?: string[];
  /** Fields in error: each a link that moves focus to the field (its message is shown there, once). */
  fields?: SummaryField[];
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
            {fields.length === 1 ? 'One answer needs your attention:' : `${fields.length} answers need your attention:`}
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
