// The support chat widget (--chat-widget-url): one async script, never blocking the page, then a
// poll every 100 ms (spec section 9) until it has defined window.SupportWidget, which is booted
// with who the applicant is. A widget that never arrives is given up after 30 s without a word:
// the applicant still has the chat with the employer and the footer's contacts.

export type SupportWidgetUser = { name: string; email: string; company: string };

declare global {
  interface Window {
    SupportWidget?: { boot?: (user: SupportWidgetUser) => void };
  }
}

export const WIDGET_POLL_MS = 100;
export const WIDGET_GIVE_UP_MS = 30000;
const SCRIPT_MARK = 'data-support-widget';

/** Adds the script (once per page) and boots the widget when it is there; returns a cancel for the poll. */
export function loadSupportWidget(url: string, user: SupportWidgetUser): () => void {
  if (!url) return () => undefined;
  if (!document.querySelector(`script[${SCRIPT_MARK}]`)) {
    const script = document.createElement('script');
    script.async = true;
    script.src = url;
    script.setAttribute(SCRIPT_MARK, '');
    document.head.append(script);
  }
  const started = Date.now();
  const timer = setInterval(() => {
    const widget = window.SupportWidget;
    if (widget !== undefined) {
      clearInterval(timer);
      if (typeof widget.boot === 'function') widget.boot(user);
      return;
    }
    if (Date.now() - started >= WIDGET_GIVE_UP_MS) clearInterval(timer);
  }, WIDGET_POLL_MS);
  return () => clearInterval(timer);
}
