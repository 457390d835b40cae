// The open forms' unsaved changes, sendable from outside React: before a session ends
// (lib/session-timeout.ts) whatever waits for its moment (lib/server-draft.ts, 800 ms after the
// last key) is sent at once, so that signing in again finds it. No imports: the session's timer
// lives with every page, and this must not bring the forms' code with it.

const openDrafts = new Set<() => Promise<void>>();

/** Registers a form's flush while it is mounted; returns the unregister. */
export function registerDraftFlush(flush: () => Promise<void>): () => void {
  openDrafts.add(flush);
  return () => {
    openDrafts.delete(flush);
  };
}

/** Sends every open form's unsaved changes; a failure of one does not stop the others. */
export async function flushOpenDrafts(): Promise<void> {
  await Promise.allSettled([...openDrafts].map((flush) => flush()));
}
