import { useEffect } from 'react';

/**
 * The page's h1 (by its id) takes focus when the page opens and each time `step` changes (the form
 * that had focus gave way to what follows), so a screen reader starts at the new title rather than
 * wherever focus was left. It is scrolled to the middle, clear of the sticky top bar.
 */
export function useFocusTitle(titleId: string, step?: unknown) {
  useEffect(() => {
    const heading = document.getElementById(titleId);
    if (!heading) return;
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
    heading.scrollIntoView?.({ block: 'center' });
  }, [titleId, step]);
}
