// Loaded at the first focus or the first page change (lib/focus-title.ts): /login's budget has no room
// for it before the visitor acts (scripts/check-bundle.mjs).
import { focusTitle } from './focus-heading';

/** How long a removed control's page gets to put the focus somewhere of its own before the h1 takes it. */
const OWN_FOCUS_WAIT_MS = 100;

/** How long a page change waits for its h1 (a page loading its data shows it late). */
const TITLE_WAIT_MS = 10_000;

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
export function focusTitleWhenShown(left: Element | null) {
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
 * A step that replaces the content (a search's results, "Start", "Authorize") removes the control that
 * was pressed: the browser's focus falls back to the document, and the page's h1 takes it instead.
 * `focused` is the control focused when this starts. Returns the function that stops watching.
 */
export function watchLostFocus(focused: Element | null) {
  let stopWaiting: (() => void) | undefined;
  let check: number | undefined;
  const onFocusIn = (event: FocusEvent) => {
    focused = event.target instanceof Element ? event.target : null;
  };
  const onChange = () => {
    if (!focused || focused.isConnected || !focusIsLost(null)) return;
    focused = null;
    // A moment later: by then a closing dialog has handed the focus back to its button, and a step
    // that focuses something of its own (a confirmation's heading, from an effect that may run after a
    // tick) has done so, and keeps it.
    window.clearTimeout(check);
    check = window.setTimeout(() => {
      stopWaiting?.();
      stopWaiting = focusTitleWhenShown(null);
    }, OWN_FOCUS_WAIT_MS);
  };
  const observer = new MutationObserver(onChange);
  document.addEventListener('focusin', onFocusIn);
  observer.observe(document.body, { childList: true, subtree: true });
  // The control may have gone while this module loaded.
  onChange();
  return () => {
    document.removeEventListener('focusin', onFocusIn);
    observer.disconnect();
    window.clearTimeout(check);
    stopWaiting?.();
  };
}
