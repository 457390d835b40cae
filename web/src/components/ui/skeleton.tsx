import { t } from '@/lib/i18n';
import styles from './skeleton.module.css';

type SkeletonProps = {
  /** Lines of text to stand in for. */
  lines?: number;
  /** What is loading, for screen readers ("Loading your documents"). */
  label?: string;
};

/** Grey bars where content will be, so the page does not jump when it arrives. */
export function Skeleton({ lines = 3, label }: SkeletonProps) {
  return (
    <div className={styles.skeleton} role="status" aria-live="polite">
      <span className="visually-hidden">{label ?? t('ui.skeleton.loading')}</span>
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} className={styles.line} aria-hidden="true" />
      ))}
    </div>
  );
}
