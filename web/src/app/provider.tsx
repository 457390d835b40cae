import { useEffect, type ReactNode } from 'react';
import { preloadSnackbar, SnackbarHost } from '@/components/snackbar/snackbar-host';

/** Loads what the first interaction will need once the browser is idle (at the latest after 2000 ms). */
function usePrefetchWhenIdle() {
  useEffect(() => {
    const prefetch = () => void preloadSnackbar().catch(() => undefined);
    if ('requestIdleCallback' in window) {
      const id = window.requestIdleCallback(prefetch, { timeout: 2000 });
      return () => window.cancelIdleCallback(id);
    }
    const timer = setTimeout(prefetch, 2000);
    return () => clearTimeout(timer);
  }, []);
}

export function AppProvider({ children }: { children: ReactNode }) {
  usePrefetchWhenIdle();
  return (
    <>
      {children}
      <SnackbarHost />
    </>
  );
}
