import { Outlet } from 'react-router';
import { QueryProvider } from '../query-provider';
import { AppFrame } from './app-frame';
import { FreshUserStatus } from './fresh-user-status';
import { InvitedHeader } from './invited-header';

/** Menu, snackbar, maintenance banner when logged in, and the chat widget; its pages get the query client. */
export function DefaultLayout() {
  return (
    <QueryProvider>
      <FreshUserStatus />
      <AppFrame chat loggedOutHeader={<InvitedHeader />}>
        <Outlet />
      </AppFrame>
    </QueryProvider>
  );
}
