// The parts of the frame only a logged-in applicant sees: the top bar with the
// user menu and the maintenance banner. Loaded lazily, with the query client.
import { MaintenanceBanner } from '@/features/banner/components/maintenance-banner';
import { TopBar } from '@/features/user-menu/components/top-bar';
import { QueryProvider } from '../query-provider';

export default function LoggedInChrome() {
  return (
    <QueryProvider>
      <TopBar />
      <MaintenanceBanner />
    </QueryProvider>
  );
}
