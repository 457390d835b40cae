// Counts in-flight API requests for the top progress bar: it runs while the
// count is above zero, finishes at zero, and shows failure when a request of
// the current run failed (spec section 4).

export type ProgressState = {
  inFlight: number;
  failed: boolean;
};

let state: ProgressState = { inFlight: 0, failed: false };
const listeners = new Set<() => void>();

function set(next: ProgressState) {
  state = next;
  for (const listener of listeners) listener();
}

export const progress = {
  start() {
    set({ inFlight: state.inFlight + 1, failed: state.inFlight === 0 ? false : state.failed });
  },
  done(failed = false) {
    set({ inFlight: Math.max(0, state.inFlight - 1), failed: state.failed || failed });
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
  getSnapshot: (): ProgressState => state,
};
