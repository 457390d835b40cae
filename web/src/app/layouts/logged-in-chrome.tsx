// The parts of the frame only a logged-in applicant sees: the top bar with
// Messages, the user menu and their unread badges, the maintenance banner, and
// the chat (its live updates, the panel, and the support widget where the
// layout has it), all kept live by the applicant's one event stream. Loaded
// lazily, with the query client, so the stream stays off /login.
import { MaintenanceBanner } from '@/features/banner/components/maintenance-banner';
import { useChatEnabled, useChatLive } from '@/features/chat/api/use-chat';
import { ChatDock } from '@/features/chat/components/chat-dock';
import { useRef, useState } from 'react';
import { HandoffDialog } from '@/features/handoff/components/handoff-dialog';
import { TopBar } from '@/features/user-menu/components/top-bar';
import { useUserEventStream } from '@/lib/user-events';
import { QueryProvider } from '../query-provider';

function Chrome({ widget }: { widget: boolean }) {
  useUserEventStream();
  const chat = useChatLive(useChatEnabled());
  // "Continue on your phone" from the user menu; focus goes back to the menu's trigger when it closes.
  const [handoffOpen, setHandoffOpen] = useState(false);
  const handoffReturn = useRef<HTMLElement | null>(null);
  const openHandoff = (trigger: HTMLButtonElement | null) => {
    handoffReturn.current = trigger;
    setHandoffOpen(true);
  };
  return (
    <>
      <TopBar unread={chat.unread} onContinueOnPhone={openHandoff} />
      <HandoffDialog open={handoffOpen} onOpenChange={setHandoffOpen} returnFocusTo={handoffReturn} />
      <MaintenanceBanner />
      {chat.profileId !== null && !chat.forbidden ? <ChatDock profileId={chat.profileId} widget={widget} /> : null}
    </>
  );
}

/** `chat`: the layout shows the support widget (the default layout; the public one does not). */
export default function LoggedInChrome({ chat }: { chat: boolean }) {
  return (
    <QueryProvider>
      <Chrome widget={chat} />
    </QueryProvider>
  );
}
