// /personal: the personal information form on its own, filled from the
// server's latest answer rather than what the session kept.
import { useQuery } from '@tanstack/react-query';
import { Button } from '@/components/ui/button';
import { PersonalForm } from '@/features/personal/components/personal-form';
import { errorMessageOf } from '@/lib/api-client';
import { currentUserQuery } from '@/lib/current-user';
import styles from './page.module.css';

export function PersonalRoute() {
  // Asked again on every visit; the form waits for this answer, not the cached one.
  const user = useQuery({ ...currentUserQuery(), refetchOnMount: 'always' });
  return (
    <div className={styles.page}>
      <h1>Personal Information</h1>
      {user.isError ? (
        <div role="alert">
          <p>Error retrieving Personal Information: {errorMessageOf(user.error)}</p>
          <Button variant="secondary" onClick={() => void user.refetch()}>
            Try again
          </Button>
        </div>
      ) : user.isFetchedAfterMount && user.data ? (
        <PersonalForm />
      ) : (
        <p role="status">Loading your personal information…</p>
      )}
    </div>
  );
}
