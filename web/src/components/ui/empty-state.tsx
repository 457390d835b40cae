import type { ReactNode } from 'react';
import styles from './empty-state.module.css';

type EmptyStateProps = {
  title: ReactNode;
  children?: ReactNode;
  /** A button or link that gets the person going. */
  action?: ReactNode;
  /** The heading level that fits the page's outline. */
  headingLevel?: 2 | 3;
};

/** Nothing to show yet (no documents, no messages): says so and what to do. */
export function EmptyState({ title, children, action, headingLevel = 2 }: EmptyStateProps) {
  const Heading = `h${headingLevel}` as const;
  return (
    <div className={styles.empty}>
      <span className={styles.mark} aria-hidden="true" />
      <Heading className={styles.title}>{title}</Heading>
      {children ? <div className={styles.body}>{children}</div> : null}
      {action ? <div className={styles.action}>{action}</div> : null}
    </div>
  );
}
