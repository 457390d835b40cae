// What a form's server draft is doing (lib/server-draft.ts): "Saving
// draft…", "Draft saved at 10:42", "Draft not saved: will retry" with a
// retry, and "Discard draft" behind a confirmation. It also asks before an
// in-app move while changes could not be saved.
import '@/lib/draft-messages';
import { useContext, useState } from 'react';
import { UNSAFE_DataRouterContext } from 'react-router';
import { Button } from '@/components/ui/button';
import { Dialog, DialogActions, DialogClose } from '@/components/ui/dialog';
import { t } from '@/lib/i18n';
import { notify } from '@/lib/notifications';
import { useDraftLeaveGuard, type DraftStatus as Status, type ServerDraftState } from '@/lib/server-draft';
import styles from './draft-status.module.css';
import { currentLocale } from '@/lib/locale';

const timeOf = (d: Date) => d.toLocaleTimeString(currentLocale(), { hour: 'numeric', minute: '2-digit' });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function DraftStatus({ draft, leaveGuard = true }: { draft: ServerDraftState<any>; leaveGuard?: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const [discarding, setDiscarding] = useState(false);
  // The question before an in-app move needs the app's (data) router; a form rendered alone has none.
  const inDataRouter = useContext(UNSAFE_DataRouterContext) !== null;

  let text = '';
  if (draft.status === 'saving' || draft.status === 'pending')
    text = draft.hasDraft || draft.status === 'saving' ? t('drafts.saving') : '';
  else if (draft.status === 'failed') text = t('drafts.failed');
  else if (draft.hasDraft && draft.savedAt) text = t('drafts.saved', { time: timeOf(draft.savedAt) });

  const discard = async () => {
    setDiscarding(true);
    try {
      await draft.discard();
      setConfirming(false);
      notify(t('drafts.discarded'), 'success');
    } catch {
      notify(t('drafts.discardFailed'), 'error');
    } finally {
      setDiscarding(false);
    }
  };

  return (
    <div className={styles.bar}>
      <p
        className={draft.status === 'failed' ? `${styles.text} ${styles.failed}` : styles.text}
        role="status"
        data-draft-status=""
        aria-live="polite"
      >
        {text}
      </p>
      {draft.status === 'failed' ? (
        <Button variant="link" onClick={draft.retry}>
          {t('drafts.retry')}
        </Button>
      ) : null}
      {draft.hasDraft || draft.status === 'failed' ? (
        <Button variant="link" onClick={() => setConfirming(true)}>
          {t('drafts.discard')}
        </Button>
      ) : null}
      <Dialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('drafts.discardTitle')}
        description={t('drafts.discardBody')}
      >
        <DialogActions>
          <DialogClose asChild>
            <Button variant="secondary">{t('drafts.keep')}</Button>
          </DialogClose>
          <Button variant="danger" loading={discarding} onClick={() => void discard()}>
            {t('drafts.discardConfirm')}
          </Button>
        </DialogActions>
      </Dialog>
      {inDataRouter && leaveGuard ? <LeaveGuard status={draft.status} /> : null}
    </div>
  );
}

/** Asks before an in-app move while changes could not be saved as a draft. */
function LeaveGuard({ status }: { status: Status }) {
  const blocker = useDraftLeaveGuard(status);
  return (
    <Dialog
      open={blocker.state === 'blocked'}
      onOpenChange={(open) => {
        if (!open) blocker.reset?.();
      }}
      title={t('drafts.leaveTitle')}
      description={t('drafts.leaveBody')}
    >
      <DialogActions>
        <Button variant="secondary" onClick={() => blocker.reset?.()}>
          {t('drafts.stay')}
        </Button>
        <Button variant="danger" onClick={() => blocker.proceed?.()}>
          {t('drafts.leave')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
