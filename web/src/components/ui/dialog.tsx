// A modal dialog on Radix Dialog (focus trap, Escape, aria-modal), in the
// design system's look. Opened from a trigger or by `open`; `returnFocusTo`
// brings focus back to the control that opened it when there is no trigger.
import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactNode, RefObject } from 'react';
import styles from './dialog.module.css';

type DialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  returnFocusTo?: RefObject<HTMLElement | null>;
};

export function Dialog({ open, onOpenChange, title, description, children, returnFocusTo }: DialogProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={styles.overlay} />
        <RadixDialog.Content
          className={styles.content}
          // Without a description Radix warns unless told there is none.
          {...(description ? {} : { 'aria-describedby': undefined })}
          onCloseAutoFocus={(event) => {
            if (returnFocusTo?.current) {
              event.preventDefault();
              returnFocusTo.current.focus();
            }
          }}
        >
          <RadixDialog.Title className={styles.title}>{title}</RadixDialog.Title>
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
