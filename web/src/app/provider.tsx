import { useEffect, type ReactNode } from 'react';
import { preloadSnackbar, SnackbarHost } from '@/components/snackbar/snackbar-host';

const FIRST_INTERACTION_EVENTS = ['pointerdown', 'keydown'] as const;

/**
 * Loads the snackbar's code at the visitor's first key or pointer press, so it
 * is there for the message that action is likely to bring (a login's success
 * or failure). A page nobody touches never loads it, which keeps /login within
 * its 140 KB budget (issue 3); a message raised before any interaction loads
 * it on demand (snackbar-host.tsx).
 */
function usePrefetchOnFirstInteraction() {
  useEffect(() => {
    const stop = () => {
      for (const type of FIRST_INTERACTION_EVENTS) window.removeEventListener(type, prefetch, true);
    };
    const prefetch = () => {
      stop();
      void preloadSnackbar().catch(() => undefined);
    };
    for (const type of FIRST_INTERACTION_EVENTS)
      window.addEventListener(type, prefetch, { capture: true, passive: true });
    return stop;
  }, []);
}

export function AppProvider({ children }: { children: ReactNode }) {
  usePrefetchOnFirstInteraction();
  return (
    <>
      {children}
      <SnackbarHost />
    </>
  );
}
