// What an applicant sees when the SSN check fails (spec sections 4 and 5):
// what to do, and a way out when the digits signed with were the wrong ones.
// The check's own message stays on the field it is about, shown once.
import '@/features/legal/lib/messages';
import { useEffect, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { errorMessageOf } from '@/lib/api-client';
import { SSN_MISMATCH_EVENT } from '@/lib/app-events';
import { notify } from '@/lib/notifications';
import { useClearSignatures } from '../api/clear-signatures';
import styles from './legal-stepper.module.css';
import { t } from '@/lib/i18n';

/** Hidden until an ssn-mismatch event; then offers to clear every signature and sign again. */
export function SsnMismatchPanel({ onCleared }: { onCleared: () => void }) {
  const [shown, setShown] = useState(false);
  const clear = useClearSignatures();

  useEffect(() => {
    const onMismatch = () => setShown(true);
    window.addEventListener(SSN_MISMATCH_EVENT, onMismatch);
    return () => window.removeEventListener(SSN_MISMATCH_EVENT, onMismatch);
  }, []);

  if (!shown) return null;
  const onClear = () =>
    clear.mutate(undefined, {
      onSuccess: () => {
        setShown(false);
        notify(t('legal.mismatch.cleared'), 'info');
        onCleared();
      },
    });
  return (
    <Alert tone="warning" className={styles.mismatch}>
      <p>{t('legal.mismatch.ifTheLastFourDigits')}</p>
      {clear.isError ? <p>{errorMessageOf(clear.error)}</p> : null}
      <Button variant="secondary" loading={clear.isPending} onClick={onClear}>
        {clear.isPending ? t('legal.mismatch.clearing') : t('legal.mismatch.clear')}
      </Button>
    </Alert>
  );
}
