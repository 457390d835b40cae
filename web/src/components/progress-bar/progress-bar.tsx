// The top loading bar: shown while a navigation or an API request is under
// way for longer than 200 ms (so quick answers cause no flicker).
import { useEffect, useState, useSyncExternalStore } from 'react';
import { progress } from '@/lib/progress';
import styles from './progress-bar.module.css';
import { t } from '@/lib/i18n';

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
    <div className={styles.track} role="progressbar" aria-label={t('common.loading')} aria-busy={phase === 'running'}>
      <div className={[styles.bar, styles[phase], failed ? styles.failed : ''].filter(Boolean).join(' ')} />
    </div>
  );
}
