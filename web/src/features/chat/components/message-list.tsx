// The conversation, oldest first: the applicant's messages on the right, the employer's (with who
// wrote them) on the left, each with its local time under a date separator, its attachment, and
// for the applicant's own whether the employer has read it. Text is React text, never HTML, with
// its line breaks kept. New employer messages are announced politely.
import '@/features/chat/lib/messages';
import '@/components/upload-field/messages';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { formatFileSize } from '@/components/upload-field/upload-field';
import { errorMessageOf } from '@/lib/api-client';
import { t } from '@/lib/i18n';
import { currentLocale } from '@/lib/locale';
import { notify } from '@/lib/notifications';
import { downloadChatFile, type ChatMessage } from '../api/chat-api';
import styles from './chat.module.css';

// Made when used: at import, the chosen language may not be set yet (lib/locale.ts).
const dayFormat = () => new Intl.DateTimeFormat(currentLocale(), { dateStyle: 'long' });
const timeFormat = () => new Intl.DateTimeFormat(currentLocale(), { hour: 'numeric', minute: '2-digit' });

function Attachment({ profileId, message }: { profileId: number; message: ChatMessage }) {
  const [busy, setBusy] = useState(false);
  if (message.fileId === null) return null;
  const name = message.fileName ?? String(message.fileId);
  const download = async () => {
    setBusy(true);
    try {
      await downloadChatFile(profileId, message.fileId as number, name);
    } catch (error) {
      notify(t('chat.error.download', { reason: errorMessageOf(error) }), 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      variant="secondary"
      className={styles.attachment}
      loading={busy}
      aria-label={t('chat.downloadName', { name, size: formatFileSize(message.fileSize ?? 0) })}
      onClick={() => void download()}
    >
      {t('chat.attachment', { name, size: formatFileSize(message.fileSize ?? 0) })}
    </Button>
  );
}

/** The newest employer message that arrived after the list was first shown, for the live region. */
function useAnnouncement(messages: ChatMessage[]) {
  const seen = useRef<number | null>(null);
  const [text, setText] = useState('');
  const newest = messages.reduce((max, m) => Math.max(max, m.id), 0);
  useEffect(() => {
    if (seen.current === null) {
      seen.current = newest;
      return;
    }
    const fresh = messages.filter((m) => m.id > (seen.current as number) && m.sender === 'employer');
    seen.current = Math.max(seen.current, newest);
    const last = fresh.at(-1);
    if (last) setText(t('chat.newMessage', { name: last.senderName, text: last.message }));
  }, [messages, newest]);
  return text;
}

export function MessageList({ profileId, messages }: { profileId: number; messages: ChatMessage[] }) {
  const announcement = useAnnouncement(messages);
  const end = useRef<HTMLLIElement>(null);
  const count = messages.length;
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [count]);

  if (count === 0) {
    return (
      <>
        <EmptyState title={t('chat.empty.title')} headingLevel={3}>
          <p>{t('chat.empty.text')}</p>
        </EmptyState>
        <p className="visually-hidden" aria-live="polite">
          {announcement}
        </p>
      </>
    );
  }

  let lastDay = '';
  return (
    <>
      <ol className={styles.list} aria-label={t('chat.conversation')}>
        {messages.map((message) => {
          const at = new Date(message.createdAt);
          const day = dayFormat().format(at);
          const separator = day !== lastDay;
          lastDay = day;
          const own = message.sender === 'subject';
          return (
            <li key={message.id} className={styles.item}>
              {separator ? <p className={styles.day}>{day}</p> : null}
              <div className={own ? styles.own : styles.theirs}>
                <p className={styles.sender}>{own ? t('chat.you') : message.senderName}</p>
                {message.message ? <p className={styles.text}>{message.message}</p> : null}
                <Attachment profileId={profileId} message={message} />
                <p className={styles.meta}>
                  <time dateTime={message.createdAt}>{timeFormat().format(at)}</time>
                  {own ? <span> · {message.readAt ? t('chat.read') : t('chat.sent')}</span> : null}
                </p>
              </div>
            </li>
          );
        })}
        <li ref={end} aria-hidden="true" className={styles.end} />
      </ol>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
    </>
  );
}
