// Apart from lib/focus-title.ts, which loads lib/page-change-focus.ts lazily: both use it.

/** Focuses `heading`, scrolled to the middle, clear of the sticky top bar. */
export function focusTitle(heading: HTMLElement) {
  heading.tabIndex = -1;
  heading.focus({ preventScroll: true });
  heading.scrollIntoView?.({ block: 'center' });
}
