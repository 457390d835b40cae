// The snackbar: top right, inside the top bar left of the user menu, a Close button (and the message's
// action, when it has one), kinds message, error, success and info; each message leaves after its
// timeout (2500 ms unless told).
import * as Toast from '@radix-ui/react-toast';
import { useSyncExternalStore } from 'react';
import { dismissSnack, notifications, DEFAULT_SNACKBAR_TIMEOUT } from '@/lib/notifications';
import styles from './snackbar.module.css';
import { t } from '@/lib/i18n';

export default function Snackbar() {
  const snacks = useSyncExternalStore(notifications.subscribe, notifications.getSnapshot, notifications.getSnapshot);
  return (
    <Toast.Provider duration={DEFAULT_SNACKBAR_TIMEOUT} swipeDirection="right" label={t('common.snackbar.label')}>
      {snacks.map((snack) => (
        <Toast.Root
          key={snack.id}
          className={[styles.snack, snack.kind === 'message' ? '' : styles[snack.kind]].filter(Boolean).join(' ')}
          duration={snack.timeout}
          type={snack.kind === 'error' ? 'foreground' : 'background'}
          data-kind={snack.kind}
          onOpenChange={(open) => {
            if (!open) dismissSnack(snack.id);
          }}
        >
          <Toast.Description className={styles.text}>{snack.text}</Toast.Description>
          {snack.action ? (
            <Toast.Action className={styles.close} altText={snack.action.label} onClick={snack.action.onSelect}>
              {snack.action.label}
            </Toast.Action>
          ) : null}
          <Toast.Close className={styles.close}>{t('common.close')}</Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport className={styles.viewport} label={t('common.snackbar.viewport')} />
    </Toast.Provider>
  );
}
