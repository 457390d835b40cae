import { Outlet } from 'react-router';
import { AppFrame } from './app-frame';
import { LoggedOutHeader } from './logged-out-header';

/** The default layout without the chat; before login the top bar has no employer (there is no query client). */
export function PublicLayout() {
  return (
    <AppFrame chat={false} loggedOutHeader={<LoggedOutHeader />}>
      <Outlet />
    </AppFrame>
  );
}
