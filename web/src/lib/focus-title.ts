import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { focusTitle } from './focus-heading';

// One rule for every page change, a route's or a step's that replaces the page's content: the focus goes
// to the new page's h1, so a keyboard starts there and a screen reader reads the new title, instead of
// falling back to the start of the document with the control that was pressed.

/**
 * The page's h1 (by its id) takes focus when the page opens and each time `step` changes (the form
 * that had focus gave way to what follows).
 */
export function useFocusTitle(titleId: string, step?: unknown) {
  useEffect(() => {
    const heading = document.getElementById(titleId);
    if (heading) focusTitle(heading);
  }, [titleId, step]);
}

const load = () => import('./page-change-focus');

/** Runs `start` from the lazy module once loaded, unless stopped before; returns the stop. */
function lazily(start: (m: Awaited<ReturnType<typeof load>>) => () => void) {
  let stop: (() => void) | undefined;
  let stopped = false;
  void load().then((m) => {
    if (!stopped) stop = start(m);
  });
  return () => {
    stopped = true;
    stop?.();
  };
}

/**
 * For the root layout (and the login shell): after each change of `pathname`, and whenever the focused
 * control disappears with the content it was in, the page's h1 takes the focus, unless the new page put
 * it somewhere itself (a field to type in, an error). A page change also puts its `title` into the
 * returned announcement, for a polite live region. The first page of a visit keeps the browser's start,
 * unless `firstIsChange`: the router app's first page after a login in the login shell
 * (app/boot.tsx) is a page change for the applicant. The work loads with the first page change or
 * focus (lib/page-change-focus.ts).
 */
export function usePageChangeFocus(title: string, pathname: string, firstIsChange = false) {
  const [announcement, setAnnouncement] = useState('');
  const firstPage = useRef(!firstIsChange);

  // Before the new page's own effects run: the control still focused now (a top bar link, the menu's
  // button) is the one the applicant left, not one the new page chose.
  useLayoutEffect(() => {
    if (firstPage.current) {
      firstPage.current = false;
      return;
    }
    const left = document.activeElement;
    setAnnouncement(title);
    return lazily((m) => m.focusTitleWhenShown(left));
    // Only when the page changes; the title belongs to it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pathname]);

  // Nothing can be lost before the first focus.
  useEffect(() => {
    let stop: (() => void) | undefined;
    const start = (event: FocusEvent) => {
      stop = lazily((m) => m.watchLostFocus(event.target as Element));
    };
    document.addEventListener('focusin', start, { once: true });
    return () => {
      document.removeEventListener('focusin', start);
      stop?.();
    };
  }, []);

  return announcement;
}
