// The chat's live state for the logged-in chrome: whether chat is on, the profile it belongs to,
// the chat's events of the applicant's stream (lib/user-events), and the unread count (polled every
// 15 s while the stream is down).
import '@/features/chat/lib/messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { config } from '@/lib/config';
import { useCompanySettings } from '@/lib/current-user';
import { t } from '@/lib/i18n';
import { notify } from '@/lib/notifications';
import { profileQuery } from '@/lib/profile';
import { onUserEvent, useUserEventsConnected } from '@/lib/user-events';
import { invalidateChat, unreadMessagesQuery } from './chat-api';

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

/** The data of the stream's `ready` and `chat` events, as far as the chat reads them. */
export type ChatEventData = { chat?: boolean; kind?: string; sender?: string };

export function chatEventData(text: string): ChatEventData {
  try {
    return JSON.parse(text) as ChatEventData;
  } catch {
    return {};
  }
}

export function useChatLive(enabled: boolean): ChatLive {
  const client = useQueryClient();
  const profile = useQuery({ ...profileQuery(), enabled, staleTime: Infinity });
  const profileId = enabled ? (profile.data?.id ?? null) : null;
  const connected = useUserEventsConnected();
  const [forbidden, setForbidden] = useState(false);

  useEffect(() => {
    if (profileId === null) return;
    return onUserEvent((event) => {
      if (event.event !== 'chat' && event.event !== 'ready') return;
      const data = chatEventData(event.data);
      if (event.event === 'ready') {
        // The server's word: chat is off for the company after all.
        setForbidden(data.chat === false);
        if (data.chat === false) return;
      }
      void invalidateChat(client, profileId);
    });
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
