// Where the screening stands, as the applicant is shown it (spec section 4: pending, complete or
// QA; before submission, not submitted yet): a coloured word and a sentence on what it means. The
// hub (/profile) and the final page (/) each bring their own words.
import type { ProfileStatusShown } from '@/lib/profile-status';
import styles from './screening-status.module.css';

export function ScreeningStatus({
  status,
  label,
  text,
  hint,
}: {
  status: ProfileStatusShown | 'not-submitted';
  /** "Your screening:" */
  label: string;
  /** "Pending" */
  text: string;
  /** What the status means for the applicant. */
  hint: string;
}) {
  return (
    <p className={styles.status}>
      {label}{' '}
      <strong data-status={status} className={styles.value}>
        {text}
      </strong>
      <span className={styles.hint}> {hint}</span>
    </p>
  );
}
