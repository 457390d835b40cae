// The chat with the employer (spec sections 2, 3 and 7): a sheet on the right (full screen on a
// phone) with the conversation, oldest first, and the composer. Opening it, and each new employer
// message while it is open and the page visible, marks the employer's messages read.
import '@/features/chat/lib/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, type RefObject } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError, apiMessages } from '@/lib/api-client';
import { useCurrentUser } from '@/lib/current-user';
import { t } from '@/lib/i18n';
import { notify } from '@/lib/notifications';
import { chatKeys, chatMessagesQuery, markChatRead, type ChatMessage } from '../api/chat-api';
import { ChatComposer } from './chat-composer';
import { MessageList } from './message-list';
import styles from './chat.module.css';

type ChatPanelProps = {
  profileId: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusTo: RefObject<HTMLElement | null>;
};

function isVisible() {
  return document.visibilityState !== 'hidden';
}

/** The newest employer message the applicant has not read, by id; 0 when none. */
function newestUnread(messages: ChatMessage[] | undefined) {
  return (messages ?? []).reduce((max, m) => (m.sender === 'employer' && !m.readAt && m.id > max ? m.id : max), 0);
}

export default function ChatPanel({ profileId, open, onOpenChange, returnFocusTo }: ChatPanelProps) {
  const client = useQueryClient();
  const company = useCurrentUser()?.company.name ?? '';
  const textarea = useRef<HTMLTextAreaElement>(null);
  const messages = useQuery({ ...chatMessagesQuery(profileId), enabled: open });

  const markRead = useMutation({
    mutationFn: () => markChatRead(profileId),
    onSuccess: (unread) => {
      client.setQueryData(chatKeys.unread(profileId), unread);
      void client.invalidateQueries({ queryKey: chatKeys.messages(profileId) });
    },
    onError: () => notify(t('chat.error.markRead'), 'error'),
  });
  const { mutate: mark } = markRead;

  // Once per opening, then once per newer unread employer message while the applicant can see it.
  const markedUpTo = useRef(-1);
  const unreadId = newestUnread(messages.data);
  const loaded = messages.isSuccess;
  useEffect(() => {
    if (!open) {
      markedUpTo.current = -1;
      return;
    }
    if (!loaded) return;
    const due = markedUpTo.current < 0 || unreadId > markedUpTo.current;
    if (!due || !isVisible()) return;
    markedUpTo.current = Math.max(unreadId, 0);
    mark();
  }, [open, loaded, unreadId, mark]);
  useEffect(() => {
    if (!open) return;
    const onVisible = () => {
      if (isVisible() && unreadId > markedUpTo.current) {
        markedUpTo.current = unreadId;
        mark();
      }
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [open, unreadId, mark]);

  const forbidden = messages.error instanceof ApiError && messages.error.status === 403;

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      placement="side"
      title={company ? t('chat.title', { company }) : t('chat.titleNoCompany')}
      description={company ? t('chat.whoAnswers', { company }) : t('chat.whoAnswersNoCompany')}
      closeLabel={t('chat.close')}
      initialFocus={textarea}
      returnFocusTo={returnFocusTo}
    >
      <div className={styles.body}>
        {messages.isPending ? (
          <Skeleton lines={4} label={t('chat.loading')} />
        ) : messages.isError ? (
          <Alert>
            <p>{forbidden ? apiMessages.accessDenied : t('chat.error.fetch')}</p>
            {forbidden ? null : (
              <Button variant="secondary" onClick={() => void messages.refetch()}>
                {t('chat.retry')}
              </Button>
            )}
          </Alert>
        ) : (
          <MessageList profileId={profileId} messages={messages.data} />
        )}
      </div>
      <ChatComposer profileId={profileId} textareaRef={textarea} disabled={forbidden} />
    </Dialog>
  );
}
