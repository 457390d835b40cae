import { useEffect } from 'react';

/**
 * The page's h1 takes focus when the page opens and each time `step` changes, so a screen reader
 * starts at the new page's title rather than wherever the focus was left.
 */
export function useFocusTitle(titleId: string, step?: unknown) {
  useEffect(() => {
    const heading = document.getElementById(titleId);
    if (!heading) return;
    heading.tabIndex = -1;
    heading.focus();
  }, [titleId, step]);
}
