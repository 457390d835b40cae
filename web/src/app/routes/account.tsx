import { AccountPage } from '@/features/account/components/account-page';
import { QueryProvider } from '../query-provider';

/** /account: public, so its layout has no query client; the settings of a logged-in applicant need one. */
export function AccountRoute() {
  return (
    <QueryProvider>
      <AccountPage />
    </QueryProvider>
  );
}
