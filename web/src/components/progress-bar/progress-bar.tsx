// The top loading bar: shown while a navigation or an API request is under
// way for longer than 200 ms (so quick answers cause no flicker). It is a
// picture only, hidden from assistive technology: it has no value to read, it
// sits outside every landmark (axe: region), and what is loading says so where
// it is (a skeleton's label, a button's busy state, an upload's named bar).
import { useEffect, useState, useSyncExternalStore } from 'react';
import { progress } from '@/lib/progress';
import styles from './progress-bar.module.css';

export const PROGRESS_THROTTLE_MS = 200;

type Phase = 'idle' | 'running' | 'finishing';

export function ProgressBar({ navigating }: { navigating: boolean }) {
  const { inFlight, failed } = useSyncExternalStore(progress.subscribe, progress.getSnapshot, progress.getSnapshot);
  const busy = navigating || inFlight > 0;
  const [phase, setPhase] = useState<Phase>('idle');

  useEffect(() => {
    if (busy) {
      const timer = setTimeout(() => setPhase('running'), PROGRESS_THROTTLE_MS);
      return () => clearTimeout(timer);
    }
    setPhase((current) => (current === 'running' ? 'finishing' : current));
    const timer = setTimeout(() => setPhase('idle'), 500);
    return () => clearTimeout(timer);
  }, [busy]);

  if (phase === 'idle') return null;
  return (
    <div className={styles.track} aria-hidden="true" data-testid="loading-bar" data-phase={phase}>
      <div className={[styles.bar, styles[phase], failed ? styles.failed : ''].filter(Boolean).join(' ')} />
    </div>
  );
}
