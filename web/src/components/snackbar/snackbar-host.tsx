// Mounts the snackbar when the first message arrives, so its code (Radix
// Toast) is not part of the first page load: messages wait in the queue of
// lib/notifications until it has loaded. app/provider.tsx prefetches it at the
// visitor's first key or pointer press.
import { Component, lazy, Suspense, useSyncExternalStore, type ReactNode } from 'react';
import { isChunkLoadError, reloadForChunkError } from '@/lib/chunk-reload';
import { notifications } from '@/lib/notifications';

export const preloadSnackbar = () => import('./snackbar');

const Snackbar = lazy(preloadSnackbar);

/** The snackbar lives outside the router's error boundaries: a chunk that fails to load reloads the page (at most once per 60 s) instead of breaking the app. */
class SnackbarBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: unknown) {
    if (isChunkLoadError(error)) reloadForChunkError();
  }

  render() {
    return this.state.failed ? null : this.props.children;
  }
}

let needed = false;

export function SnackbarHost() {
  const snacks = useSyncExternalStore(notifications.subscribe, notifications.getSnapshot, notifications.getSnapshot);
  if (snacks.length > 0) needed = true;
  if (!needed) return null;
  return (
    <SnackbarBoundary>
      <Suspense fallback={null}>
        <Snackbar />
      </Suspense>
    </SnackbarBoundary>
  );
}
