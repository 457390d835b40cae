// The snackbar's queue. Anything (the API client, guards, forms) calls
// notify(); components/snackbar renders what is queued. The snackbar's code
// loads with the first message, so a message raised before it is there waits
// here, and its timeout starts once it is on screen.
// Snackbars are for confirmations: they leave after their timeout. An error
// the page cannot show in place stays until the applicant closes it (WCAG
// 2.2.1, 2.2.3): nobody should have to read a failure against a clock.

export type SnackbarKind = 'message' | 'error' | 'success' | 'info';

/** A button beside the message that does what it offers (Open) and closes the message. */
export type SnackAction = { label: string; onSelect: () => void };

export type Snack = {
  id: number;
  text: string;
  kind: SnackbarKind;
  timeout: number;
  action?: SnackAction;
};

export const DEFAULT_SNACKBAR_TIMEOUT = 2500;
/** An error's timeout: none, it stays until closed. */
export const NO_TIMEOUT = Infinity;
/** At most this many messages are on screen; older ones give way. */
const MAX_VISIBLE = 3;

let snacks: Snack[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

/** Queues a message; an error ignores `timeout` and stays until closed. */
export function notify(
  text: string,
  kind: SnackbarKind = 'message',
  timeout = DEFAULT_SNACKBAR_TIMEOUT,
  action?: SnackAction,
): Snack {
  const snack: Snack = {
    id: nextId++,
    text,
    kind,
    timeout: kind === 'error' ? NO_TIMEOUT : timeout,
    ...(action ? { action } : {}),
  };
  snacks = withinLimit([...snacks, snack]);
  emit();
  return snack;
}

/** The newest MAX_VISIBLE messages; a confirmation gives way before an error does, an error only to a newer one. */
function withinLimit(queue: Snack[]): Snack[] {
  const kept = [...queue];
  while (kept.length > MAX_VISIBLE) {
    const confirmation = kept.findIndex((s) => s.kind !== 'error');
    kept.splice(confirmation === -1 || confirmation === kept.length - 1 ? 0 : confirmation, 1);
  }
  return kept;
}

export function dismissSnack(id: number) {
  snacks = snacks.filter((s) => s.id !== id);
  emit();
}

export function clearSnacks() {
  snacks = [];
  emit();
}

export const notifications = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
  getSnapshot: (): Snack[] => snacks,
};
