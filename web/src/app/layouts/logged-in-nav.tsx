// The data pages' navigation, for an applicant whose setup is complete (the
// pages it lists are theirs only then). Loaded lazily with the query client,
// like the top bar, so /login carries neither.
import { AppNav } from '@/components/app-nav/app-nav';
import { useCurrentUser } from '@/lib/current-user';
import { useSubject } from '@/lib/subject';
import { statusFromId } from '@/lib/subject-status';
import { QueryProvider } from '../query-provider';

function SetupCompleteNav() {
  const { data } = useSubject();
  return <AppNav pages={data?.pages} />;
}

function NavForStatus() {
  const statusId = useCurrentUser()?.subject.status?.statusId;
  return statusFromId(statusId) === 'setup-complete' ? <SetupCompleteNav /> : null;
}

export default function LoggedInNav() {
  return (
    <QueryProvider>
      <NavForStatus />
    </QueryProvider>
  );
}
