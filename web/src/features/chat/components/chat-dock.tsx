// What the chat adds to every logged-in page: the panel, opened by the top bar's Messages, the user
// menu's entry (main-menu-chat-selected) or a new reply's toast, and loaded on first use; and the
// support widget where the layout has it. The panel's code stays out of the chrome's chunk until the
// applicant asks for it.
import '@/features/chat/lib/messages';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { fullNameOf } from '@/lib/auth';
import { MAIN_MENU_CHAT_SELECTED, type ChatSelectedDetail } from '@/lib/app-events';
import { config } from '@/lib/config';
import { useCurrentUser } from '@/lib/current-user';
import { t } from '@/lib/i18n';
import { notify } from '@/lib/notifications';
import { onUserEvent } from '@/lib/user-events';
import { chatEventData } from '../api/use-chat';
import { loadSupportWidget } from '../lib/support-widget';

const ChatPanel = lazy(() => import('./chat-panel'));

/** Long enough to read and reach Open; the unread count stays after it goes. */
export const NEW_REPLY_TOAST_MS = 10000;

type ChatDockProps = {
  profileId: number;
  /** The layout shows the support widget (the default layout; not the public one). */
  widget: boolean;
};

export function ChatDock({ profileId, widget }: ChatDockProps) {
  const [open, setOpen] = useState(false);
  const [everOpened, setEverOpened] = useState(false);
  const returnFocusTo = useRef<HTMLElement | null>(null);
  const isOpen = useRef(open);
  isOpen.current = open;

  const openChat = useCallback((trigger: HTMLElement | null) => {
    returnFocusTo.current = trigger;
    setEverOpened(true);
    setOpen(true);
  }, []);

  useEffect(() => {
    const onChat = (event: Event) =>
      openChat((event as CustomEvent<ChatSelectedDetail | undefined>).detail?.trigger ?? null);
    window.addEventListener(MAIN_MENU_CHAT_SELECTED, onChat);
    return () => window.removeEventListener(MAIN_MENU_CHAT_SELECTED, onChat);
  }, [openChat]);

  const current = useCurrentUser();
  const name = fullNameOf(current?.subject ?? null);
  const email = current?.subject.email ?? '';
  const company = current?.company.name ?? '';

  // A reply while the panel is closed is told at once, with the way to it; an open panel shows it.
  useEffect(
    () =>
      onUserEvent((event) => {
        if (event.event !== 'chat' || isOpen.current) return;
        const data = chatEventData(event.data);
        if (data.kind !== 'message' || data.sender !== 'employer') return;
        notify(company ? t('chat.toast', { company }) : t('chat.toastNoCompany'), 'info', NEW_REPLY_TOAST_MS, {
          label: t('chat.toastOpen'),
          // Focus then returns to where the applicant was reading.
          onSelect: () => openChat(document.getElementById('main')),
        });
      }),
    [company, openChat],
  );

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
