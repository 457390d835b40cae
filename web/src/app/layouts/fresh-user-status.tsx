// The status an open tab believes can go stale: another tab, the operator or
// the screening itself moves it on the server. The user is fetched again when
// the tab or window gets focus and after every status move, and the guards of
// the current page run again with the status it brings.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useRevalidator } from 'react-router';
import { SUBJECT_STATUS_MOVED } from '@/lib/app-events';
import { currentUserQuery, useCurrentUser } from '@/lib/current-user';
import { useSession } from '@/lib/session';

export function FreshUserStatus() {
  const loggedIn = useSession((s) => s.loggedIn);
  const statusId = useCurrentUser()?.subject.status?.statusId;
  const queryClient = useQueryClient();
  const revalidator = useRevalidator();
  const seenStatus = useRef(statusId);

  useQuery({
    ...currentUserQuery(),
    enabled: loggedIn,
    // The guards put the user in the cache: no fetch on mount, one on every focus.
    refetchOnWindowFocus: 'always',
  });

  useEffect(() => {
    const refetch = () => void queryClient.invalidateQueries({ queryKey: currentUserQuery().queryKey });
    window.addEventListener(SUBJECT_STATUS_MOVED, refetch);
    return () => window.removeEventListener(SUBJECT_STATUS_MOVED, refetch);
  }, [queryClient]);

  useEffect(() => {
    if (seenStatus.current === statusId) return;
    seenStatus.current = statusId;
    // The page's guards decide again: a page the new status does not allow sends the applicant on.
    void revalidator.revalidate();
  }, [statusId, revalidator]);

  return null;
}
