import { AppFrame } from './app-frame';

/** The default layout without the chat. */
export function PublicLayout() {
  return <AppFrame chat={false} />;
}
