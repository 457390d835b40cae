// /personal: the personal information form on its own, filled from the
// server's latest answer rather than what the session kept.
import { useQuery } from '@tanstack/react-query';
import { Button } from '@/components/ui/button';
import { PersonalForm } from '@/features/personal/components/personal-form';
import { errorMessageOf } from '@/lib/api-client';
import { getCurrentUser, storeUserPayload } from '@/lib/auth';
import styles from './page.module.css';

export function PersonalRoute() {
  const user = useQuery({
    queryKey: ['user'],
    queryFn: async () => {
      const payload = await getCurrentUser();
      storeUserPayload(payload);
      return payload;
    },
    staleTime: 0,
  });
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
      ) : user.data ? (
        <PersonalForm />
      ) : (
        <p role="status">Loading your personal information…</p>
      )}
    </div>
  );
}
