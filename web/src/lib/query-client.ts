// The app's one TanStack Query client. It is imported only by lazily loaded
// parts (the default layout, the logged-in chrome), which keeps query code off
// the login page's initial load.
import { focusManager, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';
import { session } from './session';

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // 4xx answers do not get better by asking again.
        retry: (failureCount, error) => !(error instanceof ApiError && error.status < 500) && failureCount < 2,
        refetchOnWindowFocus: false,
      },
    },
  });
}

export const queryClient = createQueryClient();

// TanStack Query watches only the tab's visibility; coming back to the window
// from another application counts as focus too (queries that ask for it, like
// the user's status, are fetched again).
focusManager.setEventListener((handleFocus) => {
  const onFocus = () => handleFocus();
  window.addEventListener('visibilitychange', onFocus, false);
  window.addEventListener('focus', onFocus, false);
  return () => {
    window.removeEventListener('visibilitychange', onFocus);
    window.removeEventListener('focus', onFocus);
  };
});

// A logout or reset must not leave another applicant's data in the cache.
session.onReset(() => queryClient.clear());
