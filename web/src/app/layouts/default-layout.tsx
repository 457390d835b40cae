import { QueryProvider } from '../query-provider';
import { AppFrame } from './app-frame';

/** Menu, snackbar, maintenance banner when logged in, and the chat widget; its pages get the query client. */
export function DefaultLayout() {
  return (
    <QueryProvider>
      <AppFrame chat />
    </QueryProvider>
  );
}
