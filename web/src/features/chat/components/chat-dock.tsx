// What the chat adds to every logged-in page: the panel, opened by the user menu's Chat with
// Support (main-menu-chat-selected) and loaded on first use, and the support widget where the
// layout has it. The panel's code stays out of the chrome's chunk until the applicant asks for it.
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { fullNameOf } from '@/lib/auth';
import { MAIN_MENU_CHAT_SELECTED, type ChatSelectedDetail } from '@/lib/app-events';
import { config } from '@/lib/config';
import { useCurrentUser } from '@/lib/current-user';
import { loadSupportWidget } from '../lib/support-widget';

const ChatPanel = lazy(() => import('./chat-panel'));

type ChatDockProps = {
  profileId: number;
  /** The layout shows the support widget (the default layout; not the public one). */
  widget: boolean;
};

export function ChatDock({ profileId, widget }: ChatDockProps) {
  const [open, setOpen] = useState(false);
  const [everOpened, setEverOpened] = useState(false);
  const returnFocusTo = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const onChat = (event: Event) => {
      returnFocusTo.current = (event as CustomEvent<ChatSelectedDetail | undefined>).detail?.trigger ?? null;
      setEverOpened(true);
      setOpen(true);
    };
    window.addEventListener(MAIN_MENU_CHAT_SELECTED, onChat);
    return () => window.removeEventListener(MAIN_MENU_CHAT_SELECTED, onChat);
  }, []);

  const current = useCurrentUser();
  const name = fullNameOf(current?.subject ?? null);
  const email = current?.subject.email ?? '';
  const company = current?.company.name ?? '';
  useEffect(() => {
    if (!widget) return;
    return loadSupportWidget(config.chatWidgetUrl, { name, email, company });
  }, [widget, name, email, company]);

  if (!everOpened) return null;
  return (
    <Suspense fallback={null}>
      <ChatPanel profileId={profileId} open={open} onOpenChange={setOpen} returnFocusTo={returnFocusTo} />
    </Suspense>
  );
}
