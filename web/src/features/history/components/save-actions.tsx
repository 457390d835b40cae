// The two saves of a history page: "Save and continue" (on to the next page of the checklist) and
// "Save for later" (stay). Both submit the form; `intent` tells the submit handler which one was pressed.
import '@/features/history/lib/messages';
import type { RefObject } from 'react';
import { Button } from '@/components/ui/button';
import { t } from '@/lib/i18n';
import styles from './history.module.css';

export type SaveIntent = 'stay' | 'continue';

export function SaveActions({ submitting, intent }: { submitting: boolean; intent: RefObject<SaveIntent> }) {
  return (
    <div className={styles.actions}>
      <Button
        type="submit"
        loading={submitting}
        onClick={() => {
          intent.current = 'continue';
        }}
      >
        {t('history.saveAndContinue')}
      </Button>
      <Button
        type="submit"
        variant="secondary"
        disabled={submitting}
        onClick={() => {
          intent.current = 'stay';
        }}
      >
        {t('history.saveForLater')}
      </Button>
    </div>
  );
}
