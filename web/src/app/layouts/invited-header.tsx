// The logged-out top bar of the default layout, which has the query client:
// on /setup the invitation token's user names the employer.
import { useCompanySettings, useCurrentUser } from '@/lib/current-user';
import { LoggedOutHeader } from './logged-out-header';

export function InvitedHeader() {
  const companyName = useCurrentUser()?.company.name;
  const logoUrl = useCompanySettings()?.companyLogoUrlAddress ?? null;
  return <LoggedOutHeader employer={companyName ? { name: companyName, logoUrl } : null} />;
}
