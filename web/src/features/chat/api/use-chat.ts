// The chat's live state for the logged-in chrome: whether chat is on, the profile it belongs to,
// the event stream while chat is on, and the unread count (polled every 15 s while the stream is down).
import '@/features/chat/lib/messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { config } from '@/lib/config';
import { useCompanySettings } from '@/lib/current-user';
import { t } from '@/lib/i18n';
import { notify } from '@/lib/notifications';
import { profileQuery } from '@/lib/profile';
import { invalidateChat, unreadMessagesQuery } from './chat-api';
import { runChatEvents } from './chat-events';

/** How often the unread count is read while the event stream is down. */
export const UNREAD_POLL_MS = 15000;

/** Spec section 2: the subjectChat flag and the company's company_subject_chat preference. */
export function useChatEnabled() {
  const companyChat = useCompanySettings()?.preferences.company_subject_chat === true;
  return config.features.subjectChat && companyChat;
}

export type ChatLive = {
  profileId: number | null;
  unread: number;
  /** The unread count could not be read (the last attempt failed). */
  unreadFailed: boolean;
  /** The server answered 403: chat is off for the company after all. */
  forbidden: boolean;
};

export function useChatLive(enabled: boolean): ChatLive {
  const client = useQueryClient();
  const profile = useQuery({ ...profileQuery(), enabled, staleTime: Infinity });
  const profileId = enabled ? (profile.data?.id ?? null) : null;
  const [connected, setConnected] = useState(false);
  const [forbidden, setForbidden] = useState(false);

  useEffect(() => {
    if (profileId === null) return;
    const controller = new AbortController();
    void runChatEvents({
      profileId,
      client,
      signal: controller.signal,
      onEvent: (event) => {
        if (event.event === 'chat' || event.event === 'ready') void invalidateChat(client, profileId);
      },
      onConnectedChange: setConnected,
      onForbidden: () => setForbidden(true),
    });
    return () => {
      controller.abort();
      setConnected(false);
    };
  }, [client, profileId]);

  const unread = useQuery({
    ...unreadMessagesQuery(profileId ?? 0),
    enabled: profileId !== null && !forbidden,
    refetchInterval: connected ? false : UNREAD_POLL_MS,
  });

  // Once per failure, not once per poll of a count that keeps failing.
  const unreadFailed = unread.isError && !forbidden;
  useEffect(() => {
    if (unreadFailed) notify(t('chat.error.unread'), 'error');
  }, [unreadFailed]);

  return {
    profileId,
    unread: profileId !== null && !forbidden ? (unread.data ?? 0) : 0,
    unreadFailed,
    forbidden,
  };
}
