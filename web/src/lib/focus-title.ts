import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';

// One rule for every page change, a route's or a step's that replaces the page's content: the focus goes
// to the new page's h1, so a keyboard starts there and a screen reader reads the new title, instead of
// falling back to the start of the document with the control that was pressed.

/** How long a page change waits for its h1 (a page loading its data shows it late). */
const TITLE_WAIT_MS = 10_000;

/** Focuses `heading`, scrolled to the middle, clear of the sticky top bar. */
export function focusTitle(heading: HTMLElement) {
  heading.tabIndex = -1;
  heading.focus({ preventScroll: true });
  heading.scrollIntoView?.({ block: 'center' });
}

/** The page's h1: the one in the main landmark, else any (a page outside the app frame). */
function pageTitle() {
  return document.querySelector<HTMLElement>('#main h1') ?? document.querySelector<HTMLElement>('h1');
}

/** True while nothing the page chose has focus: the focus is on the document, the main landmark or `left`. */
function focusIsLost(left: Element | null) {
  const active = document.activeElement;
  return !active || active === document.body || active.id === 'main' || active === left || !active.isConnected;
}

/** Focuses the page's h1 once it is there, as long as the focus stays lost. Returns the function that stops waiting. */
function focusTitleWhenShown(left: Element | null) {
  let stopped = false;
  const observer = new MutationObserver(() => attempt());
  const timer = window.setTimeout(() => stop(), TITLE_WAIT_MS);
  function stop() {
    stopped = true;
    observer.disconnect();
    window.clearTimeout(timer);
  }
  function attempt() {
    if (stopped) return;
    if (!focusIsLost(left)) return stop();
    const heading = pageTitle();
    if (!heading) return;
    stop();
    focusTitle(heading);
  }
  observer.observe(document.body, { childList: true, subtree: true });
  attempt();
  return stop;
}

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

/**
 * For the root layout: after each route change, and whenever the focused control disappears with the
 * content it was in, the page's h1 takes the focus, unless the new page put it somewhere itself (a
 * field to type in, an error). A route change also puts its `title` into the returned announcement,
 * for a polite live region. The first page of a visit keeps the browser's start.
 */
export function usePageChangeFocus(title: string) {
  const { pathname } = useLocation();
  const [announcement, setAnnouncement] = useState('');
  const firstPage = useRef(true);
  const left = useRef<Element | null>(null);

  // Before the new page's own effects run: the control still focused now (a top bar link, the menu's
  // button) is the one the applicant left, not one the new page chose.
  useLayoutEffect(() => {
    left.current = document.activeElement;
  }, [pathname]);

  useEffect(() => {
    if (firstPage.current) {
      firstPage.current = false;
      return;
    }
    setAnnouncement(title);
    return focusTitleWhenShown(left.current);
    // Only when the page changes; the title belongs to it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pathname]);

  // A step that replaces the content (a search's results, "Start", "Authorize") removes the control that
  // was pressed: the browser's focus falls back to the document.
  useEffect(() => {
    let focused: Element | null = null;
    let stopWaiting: (() => void) | undefined;
    const onFocusIn = (event: FocusEvent) => {
      focused = event.target instanceof Element ? event.target : null;
    };
    let check: number | undefined;
    const observer = new MutationObserver(() => {
      if (!focused || focused.isConnected || !focusIsLost(null)) return;
      focused = null;
      // A tick later: a closing dialog hands the focus back to its button by then.
      window.clearTimeout(check);
      check = window.setTimeout(() => {
        stopWaiting?.();
        stopWaiting = focusTitleWhenShown(null);
      });
    });
    document.addEventListener('focusin', onFocusIn);
    observer.observe(document.body, { childList: true, subtree: true });
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      observer.disconnect();
      window.clearTimeout(check);
      stopWaiting?.();
    };
  }, []);

  return announcement;
}
