// A modal dialog on Radix Dialog (focus trap, Escape, aria-modal), in the
// design system's look. Opened from a trigger or by `open`; `returnFocusTo`
// brings focus back to the control that opened it when there is no trigger.
// placement 'side' is a sheet on the right (full screen on a phone) for a
// panel that stays open beside the page's work, such as the chat; 'full'
// covers the window, for something to read at size (a form's preview). Every
// dialog has a Close button (an X) at the top, beside its title: the way out
// that a phone user looks for first, besides Escape and the buttons below.
import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactNode, RefObject } from 'react';
import { t } from '@/lib/i18n';
import styles from './dialog.module.css';

type DialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  returnFocusTo?: RefObject<HTMLElement | null>;
  placement?: 'center' | 'side' | 'full';
  /** Where focus goes on open (the first field); Radix's default is the first focusable element. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** The accessible name of the close button in the title row ("Close" unless said). */
  closeLabel?: string;
};

export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  returnFocusTo,
  placement = 'center',
  initialFocus,
  closeLabel = t('common.close'),
}: DialogProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={styles.overlay} />
        <RadixDialog.Content
          className={{ center: styles.content, side: styles.side, full: styles.full }[placement]}
          // Without a description Radix warns unless told there is none.
          {...(description ? {} : { 'aria-describedby': undefined })}
          onOpenAutoFocus={(event) => {
            if (initialFocus?.current) {
              event.preventDefault();
              initialFocus.current.focus();
            }
          }}
          onCloseAutoFocus={(event) => {
            if (returnFocusTo?.current) {
              event.preventDefault();
              returnFocusTo.current.focus();
            }
          }}
        >
          <div className={styles.header}>
            <RadixDialog.Title className={styles.title}>{title}</RadixDialog.Title>
            <RadixDialog.Close className={styles.close} aria-label={closeLabel}>
              <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
                <path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
              </svg>
            </RadixDialog.Close>
          </div>
          {description ? (
            <RadixDialog.Description className={styles.description}>{description}</RadixDialog.Description>
          ) : null}
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** Wraps a button that closes the dialog. */
export const DialogClose = RadixDialog.Close;

/** The row of buttons at the bottom of a dialog. */
export function DialogActions({ children }: { children: ReactNode }) {
  return <div className={styles.actions}>{children}</div>;
}
