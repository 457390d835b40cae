// The applicant's chat with the employer (docs/api.md "Chat with the employer"): the messages, the
// unread count, sending (text, or multipart with a file), marking read and downloading attachments.
// Every call is silent on 403 (chat off for the company): the chat says so itself, not the global
// Access Denied snackbar, since the unread count is polled.
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { saveFile } from '@/lib/download';
import { uploadFile } from '@/lib/upload';

export type ChatMessage = {
  id: number;
  message: string;
  sender: 'subject' | 'employer';
  senderName: string;
  fileId: number | null;
  fileName: string | null;
  fileSize: number | null;
  fileType: string | null;
  createdAt: string;
  /** When the other side read it. */
  readAt: string | null;
};

/** The server refuses longer messages (after trimming). */
export const MAX_MESSAGE_LENGTH = 5000;

export function chatPath(profileId: number, rest = '') {
  return `api/v2/user/subject/profile/${profileId}/chat-messages${rest}`;
}

export const chatKeys = {
  all: (profileId: number) => ['chat', profileId] as const,
  messages: (profileId: number) => ['chat', profileId, 'messages'] as const,
  unread: (profileId: number) => ['chat', profileId, 'unread'] as const,
};

export const chatMessagesQuery = (profileId: number) =>
  queryOptions({
    queryKey: chatKeys.messages(profileId),
    queryFn: async () =>
      (await api.get<{ payload: ChatMessage[] }>(chatPath(profileId), { silentForbidden: true })).payload,
  });

export const unreadMessagesQuery = (profileId: number) =>
  queryOptions({
    queryKey: chatKeys.unread(profileId),
    queryFn: async () =>
      (
        await api.get<{ unreadMessages: number }>(chatPath(profileId, '/unread-messages'), {
          silentForbidden: true,
        })
      ).unreadMessages,
  });

/** JSON for text alone; with a file, multipart with the text first (the server reads in order). */
export function sendChatMessage(profileId: number, message: string, file: File | null) {
  if (!file) return api.post<ChatMessage>(chatPath(profileId), { message }, { silentForbidden: true });
  const body = new FormData();
  body.append('message', message);
  body.append('file', file, file.name);
  return uploadFile<ChatMessage>(chatPath(profileId), body);
}

export async function markChatRead(profileId: number) {
  const answer = await api.post<{ unreadMessages: number }>(
    chatPath(profileId, '/read'),
    { profileId },
    { silentForbidden: true },
  );
  return answer.unreadMessages;
}

/** The name in `Content-Disposition: attachment; filename="…"` (or filename*=UTF-8''…), if any. */
export function filenameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // malformed: fall back to the plain filename
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/.exec(disposition);
  if (!plain) return null;
  return (plain[1] ?? plain[2]).replace(/\\(.)/g, '$1').trim() || null;
}

/** Downloads an attachment under the server's file name (the message's as a fallback). */
export async function downloadChatFile(profileId: number, fileId: number, fallbackName: string) {
  let disposition: string | null = null;
  // The api client answers the body only; this transport keeps the header the name comes from.
  const transport: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    disposition = response.headers.get('Content-Disposition');
    return response;
  };
  const blob = await api.get<Blob>(chatPath(profileId, '/download-file'), {
    query: { fileId },
    responseType: 'blob',
    silentForbidden: true,
    transport,
  });
  saveFile(blob, filenameOf(disposition) ?? fallbackName);
}

/** After an event of the stream, a message sent or messages read: read the conversation and the count afresh. */
export function invalidateChat(client: QueryClient, profileId: number) {
  return client.invalidateQueries({ queryKey: chatKeys.all(profileId) });
}
