/**
 * What a page change announces (lib/focus-title.ts): a live region of its own, not role="status", so the
 * pages' own statuses stay the one status.
 */
export function PageAnnouncement({ text }: { text: string }) {
  return (
    <p id="page-announcement" className="visually-hidden" aria-live="polite" aria-atomic="true">
      {text}
    </p>
  );
}
