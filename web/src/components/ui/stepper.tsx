// The steps of a journey (setup, legal notices). On a wide container every
// step shows in a row; in a narrow one (a phone) the row collapses to one line,
// "Step 4 of 5: Review Legal Notices", with a progress bar. A container query
// decides, so no JavaScript measures anything. The full list stays in the
// accessibility tree at every width; the short line is for the eye only.
import type { ReactNode } from 'react';
import { t } from '@/lib/i18n';
import styles from './stepper.module.css';

export type StepStatus = 'complete' | 'current' | 'pending' | 'error';

export type Step = {
  id: string;
  title: string;
  status: StepStatus;
  /** Why a step needs attention, shown under its title. */
  error?: ReactNode;
};

type StepperProps = {
  steps: Step[];
  /** The list's accessible name ("Setup steps"). */
  label: string;
  /**
   * The step shown now, when it may differ from the one with status current
   * (a finished step opened again with the browser's Back). Defaults to the
   * first step whose status is current.
   */
  currentId?: string;
};

const spoken: Record<StepStatus, 'ui.stepper.complete' | 'ui.stepper.current' | 'ui.stepper.error' | null> = {
  complete: 'ui.stepper.complete',
  current: 'ui.stepper.current',
  error: 'ui.stepper.error',
  pending: null,
};

export function Stepper({ steps, label, currentId }: StepperProps) {
  const isCurrent = (step: Step) => (currentId === undefined ? step.status === 'current' : step.id === currentId);
  const currentIndex = Math.max(0, steps.findIndex(isCurrent));
  const current = steps[currentIndex];
  const done = steps.filter((s) => s.status === 'complete').length;
  return (
    <div className={styles.stepper}>
      <p className={styles.compact} aria-hidden="true" data-testid="stepper-compact">
        <span className={styles.compactCount}>
          {t('ui.stepper.count', { current: currentIndex + 1, total: steps.length })}
        </span>{' '}
        <span className={styles.compactTitle}>{current?.title}</span>
        <span className={styles.bar}>
          <span className={styles.fill} style={{ width: `${(done / Math.max(steps.length, 1)) * 100}%` }} />
        </span>
      </p>
      <ol className={styles.list} aria-label={label}>
        {steps.map((step, i) => {
          const key = spoken[step.status];
          return (
            <li
              key={step.id}
              className={styles.step}
              data-status={step.status}
              aria-current={isCurrent(step) ? 'step' : undefined}
            >
              <span className={styles.badge} aria-hidden="true">
                {step.status === 'complete' ? '✓' : step.status === 'error' ? '!' : i + 1}
              </span>
              <span className={styles.text}>
                {step.title}
                {key ? <span className="visually-hidden"> {t(key)}</span> : null}
                {step.error ? <span className={styles.error}>{step.error}</span> : null}
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
