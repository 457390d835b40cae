// Kept out of lib/form.ts: /login loads that module and has no use for this one.
import { useEffect, type RefObject } from 'react';

/**
 * Pressing one of the form's buttons leaves the focus in the field being typed in. Otherwise the press
 * blurs that field, its message (mode 'onTouched') appears above the button and pushes it down before the
 * mouse is released, and the click lands beside it: "Save" or "Add" then does nothing. The click still
 * fires and the keyboard is unaffected. Buttons opening a dialog keep their focus, for the dialog to hand
 * it back to them.
 */
export function keepFocusOnPress(event: Pick<Event, 'target' | 'preventDefault'>) {
  const button = event.target instanceof Element ? event.target.closest('button') : null;
  if (button && !button.disabled && !button.hasAttribute('aria-haspopup')) event.preventDefault();
}

/** keepFocusOnPress on the form `ref` holds (a listener: jsx-a11y keeps mouse handlers off a <form>). */
export function useKeepFocusOnPress(ref: RefObject<HTMLFormElement | null>) {
  useEffect(() => {
    const form = ref.current;
    form?.addEventListener('mousedown', keepFocusOnPress);
    return () => form?.removeEventListener('mousedown', keepFocusOnPress);
  });
}
