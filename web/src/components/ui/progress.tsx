import styles from './progress.module.css';

type ProgressProps = {
  /** 0 to 100. */
  value: number;
  /** What is progressing ("Upload of license.png"). */
  label: string;
  /** The value in words ("40% sent"); by default the percentage. */
  valueText?: string;
};

/** How far a task with a known end has come (an upload): a bar with its value for screen readers. */
export function Progress({ value, label, valueText }: ProgressProps) {
  const now = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div
      className={styles.track}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={now}
      aria-valuetext={valueText}
    >
      <div className={styles.bar} style={{ width: `${now}%` }} />
    </div>
  );
}
