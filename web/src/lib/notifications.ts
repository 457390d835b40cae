// The snackbar's queue. Anything (the API client, guards, forms) calls
// notify(); components/snackbar renders what is queued. The snackbar's code
// loads with the first message, so a message raised before it is there waits
// here, and its timeout starts once it is on screen.

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
/** At most this many messages are on screen; older ones give way. */
const MAX_VISIBLE = 3;

let snacks: Snack[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

export function notify(
  text: string,
  kind: SnackbarKind = 'message',
  timeout = DEFAULT_SNACKBAR_TIMEOUT,
  action?: SnackAction,
): Snack {
  const snack: Snack = { id: nextId++, text, kind, timeout, ...(action ? { action } : {}) };
  snacks = [...snacks, snack].slice(-MAX_VISIBLE);
  emit();
  return snack;
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
