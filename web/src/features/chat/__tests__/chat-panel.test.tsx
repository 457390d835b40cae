import { act, screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { companySettingsQuery } from '@/lib/current-user';
import { queryClient } from '@/lib/query-client';
import { companySettings } from '@/testing/fixtures';
import { logInAs, renderApp } from '@/testing/render-app';
import { liveUserEvents, server } from '@/testing/server';
import type { ChatMessage } from '../api/chat-api';

const CHAT = '/api/v2/user/subject/profile/11/chat-messages';

function chatMessage(overrides: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id: 1,
    message: 'Hello',
    sender: 'subject',
    senderName: 'Dana Demo',
    fileId: null,
    fileName: null,
    fileSize: null,
    fileType: null,
    createdAt: '2026-11-23T09:14:03Z',
    readAt: null,
    ...overrides,
  };
}

/** The server's conversation as it is now; tests change it as the server would. */
function serveChat(messages: ChatMessage[], unread = 0) {
  const state = { messages, unread, reads: [] as unknown[], posts: [] as unknown[] };
  server.use(
    http.get(CHAT, () => HttpResponse.json({ payload: state.messages })),
    http.get(`${CHAT}/unread-messages`, () => HttpResponse.json({ unreadMessages: state.unread })),
    http.post(`${CHAT}/read`, async ({ request }) => {
      state.reads.push(await request.json());
      state.unread = 0;
      return HttpResponse.json({ unreadMessages: 0 });
    }),
  );
  return state;
}

async function openChat() {
  logInAs(2);
  const app = renderApp('/');
  const trigger = await screen.findByRole('button', { name: /^User menu/ });
  await app.user.click(trigger);
  await app.user.click(await screen.findByRole('menuitem', { name: /^Message Acme Logistics hiring team/ }));
  const panel = await screen.findByRole('dialog', { name: 'Message Acme Logistics hiring team' });
  return { ...app, trigger, panel };
}

afterEach(() => vi.restoreAllMocks());

describe('the chat panel', () => {
  it('shows the conversation oldest first, own messages with read state, the employer’s with their name, HTML as text', async () => {
    const state = serveChat([
      chatMessage({ id: 1, message: 'Hello\nsecond line', readAt: '2026-11-23T09:20:00Z' }),
      chatMessage({
        id: 2,
        sender: 'employer',
        senderName: 'Acme HR',
        message: '<img src=x onerror="alert(1)"><b>hi</b>',
      }),
      chatMessage({ id: 3, message: 'Thanks' }),
    ]);
    const { panel } = await openChat();
    const list = await within(panel).findByRole('list', { name: 'Conversation' });
    const items = within(list).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('You');
    expect(items[0]).toHaveTextContent('Read');
    expect(items[0].querySelector('p[class*="text"]')?.textContent).toBe('Hello\nsecond line');
    expect(items[1]).toHaveTextContent('Acme HR');
    expect(items[1]).toHaveTextContent('<img src=x onerror="alert(1)"><b>hi</b>');
    expect(panel.querySelector('img, b')).toBeNull();
    expect(items[2]).toHaveTextContent('Sent');
    expect(within(panel).getAllByText('November 23, 2026')).toHaveLength(1);
    // Opening marks the employer's messages read.
    await waitFor(() => expect(state.reads).toEqual([{ profileId: 11 }]));
    const result = await axe.run(panel, { rules: { 'color-contrast': { enabled: false } } });
    expect(result.violations.map((v) => v.id)).toEqual([]);
  });

  it('moves focus to the message box on open, closes on Escape and returns focus to the menu button', async () => {
    serveChat([]);
    const { user, panel, trigger } = await openChat();
    expect(await within(panel).findByRole('heading', { name: 'No messages yet' })).toBeInTheDocument();
    await waitFor(() => expect(within(panel).getByRole('textbox', { name: 'Message' })).toHaveFocus());
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(trigger).toHaveFocus());
  });

  it('sends with Enter; Shift+Enter adds a line instead', async () => {
    const state = serveChat([]);
    server.use(
      http.post(CHAT, async ({ request }) => {
        const body = (await request.json()) as { message: string };
        state.posts.push(body);
        const created = chatMessage({ id: 9, message: body.message });
        state.messages = [created];
        return HttpResponse.json(created, { status: 201 });
      }),
    );
    const { user, panel } = await openChat();
    const box = within(panel).getByRole('textbox', { name: 'Message' });
    await user.type(box, 'Line one{Shift>}{Enter}{/Shift}Line two');
    expect(state.posts).toEqual([]);
    expect(box).toHaveValue('Line one\nLine two');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(state.posts).toEqual([{ message: 'Line one\nLine two' }]));
    await waitFor(() => expect(box).toHaveValue(''));
    expect(await within(panel).findByText(/Line one/)).toBeInTheDocument();
  });

  it('keeps the text and shows the server’s message under the box on 422', async () => {
    serveChat([]);
    server.use(
      http.post(CHAT, () =>
        HttpResponse.json(
          {
            errorMessage: 'validation error',
            errorFields: [{ field: 'message', message: 'A message is at most 5000 characters.' }],
          },
          { status: 422 },
        ),
      ),
    );
    const { user, panel } = await openChat();
    const box = within(panel).getByRole('textbox', { name: 'Message' });
    await user.type(box, 'Too long, says the server{Enter}');
    expect(await within(panel).findByText('A message is at most 5000 characters.')).toBeInTheDocument();
    expect(box).toHaveValue('Too long, says the server');
    expect(box).toHaveAttribute('aria-invalid', 'true');
  });

  it('refuses an empty message without asking the server', async () => {
    serveChat([]);
    const { user, panel } = await openChat();
    await user.click(within(panel).getByRole('button', { name: 'Send' }));
    expect(await within(panel).findByText('Write a message or attach a file.')).toBeInTheDocument();
  });

  it('sends an attachment as multipart, text first; a file over 20 MB is refused before sending', async () => {
    const state = serveChat([]);
    server.use(
      http.post(CHAT, async ({ request }) => {
        const body = await request.formData();
        state.posts.push([...body.keys()]);
        return HttpResponse.json(chatMessage({ id: 5, fileId: 3, fileName: 'stub.pdf', fileSize: 10 }), {
          status: 201,
        });
      }),
    );
    const { user, panel } = await openChat();
    const input = within(panel).getByLabelText('Attach a file', { selector: 'input' });
    const big = new File(['x'], 'huge.pdf', { type: 'application/pdf' });
    Object.defineProperty(big, 'size', { value: 20971521 });
    await user.upload(input, big);
    expect(await within(panel).findByText(/huge.pdf is larger than 20 MB/)).toBeInTheDocument();

    await user.upload(input, new File(['%PDF-1.4'], 'stub.pdf', { type: 'application/pdf' }));
    const chosen = await within(panel).findByRole('group', { name: 'File to send' });
    expect(chosen).toHaveTextContent('stub.pdf');
    expect(within(panel).queryByText(/huge.pdf is larger/)).not.toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(state.posts).toEqual([['message', 'file']]));
    await waitFor(() => expect(within(panel).queryByRole('group', { name: 'File to send' })).not.toBeInTheDocument());
  });

  it('downloads an attachment under the content-disposition name and revokes its URL after 100 ms', async () => {
    serveChat([chatMessage({ id: 4, fileId: 31, fileName: 'pay-stub.pdf', fileSize: 48213 })]);
    const fileIds: (string | null)[] = [];
    server.use(
      http.get(`${CHAT}/download-file`, ({ request }) => {
        fileIds.push(new URL(request.url).searchParams.get('fileId'));
        return new HttpResponse('%PDF', {
          headers: { 'Content-Disposition': 'attachment; filename="pay stub.pdf"' },
        });
      }),
    );
    const created = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:test/1');
    const revoked = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const { user, panel } = await openChat();
    await user.click(await within(panel).findByRole('button', { name: /^Download pay-stub\.pdf · / }));
    await waitFor(() => expect(names).toEqual(['pay stub.pdf']));
    expect(fileIds).toEqual(['31']);
    expect(created).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(revoked).toHaveBeenCalledWith('blob:test/1'));
  });

  it('says chat is not available on 403', async () => {
    serveChat([]);
    server.use(http.get(CHAT, () => HttpResponse.json({ errorMessage: 'Access Denied' }, { status: 403 })));
    const { panel } = await openChat();
    expect(await within(panel).findByRole('alert')).toHaveTextContent(/Access Denied/);
    expect(within(panel).getByRole('button', { name: 'Send' })).toBeDisabled();
  });

  it('says so when the messages cannot be read', async () => {
    serveChat([]);
    server.use(http.get(CHAT, () => HttpResponse.json({ errorMessage: 'boom' }, { status: 500 })));
    const { panel } = await openChat();
    expect(await within(panel).findByRole('alert', {}, { timeout: 10000 })).toHaveTextContent(
      'Error fetching chat messages',
    );
  });
});

describe('the unread badge', () => {
  it('shows the count on the menu button and the menu entry, in the button’s name', async () => {
    serveChat([], 2);
    logInAs(2);
    const { user } = renderApp('/');
    const trigger = await screen.findByRole('button', { name: 'User menu, 2 unread messages' });
    expect(within(trigger).getByTestId('unread-badge')).toHaveTextContent('2');
    await user.click(trigger);
    expect(
      await screen.findByRole('menuitem', { name: /Message Acme Logistics hiring team.*2 unread/ }),
    ).toBeInTheDocument();
  });

  it('shows 99+ beyond 99, and nothing at 0', async () => {
    const state = serveChat([], 120);
    logInAs(2);
    renderApp('/');
    const trigger = await screen.findByRole('button', { name: 'User menu, 120 unread messages' });
    expect(within(trigger).getByTestId('unread-badge')).toHaveTextContent('99+');
    state.unread = 0;
    await act(() => queryClient.invalidateQueries({ queryKey: ['chat'] }));
    await screen.findByRole('button', { name: 'User menu' });
    expect(screen.queryByTestId('unread-badge')).not.toBeInTheDocument();
  });

  it('updates after an event of the stream', async () => {
    const state = serveChat([], 0);
    const { push } = liveUserEvents('{"chat": true, "unreadMessages": 0}');
    logInAs(2);
    renderApp('/');
    await screen.findByRole('button', { name: 'User menu' });
    state.unread = 1;
    await waitFor(() => push('chat', '{"kind": "message", "messageId": 13, "sender": "employer"}'));
    expect(await screen.findByRole('button', { name: 'User menu, 1 unread message' })).toBeInTheDocument();
  });

  it('tells of a reply with a toast while the panel is closed, whose Open opens it', async () => {
    const state = serveChat(
      [chatMessage({ id: 11, sender: 'employer', senderName: 'Acme HR', message: 'Welcome' })],
      1,
    );
    const { push } = liveUserEvents('{"chat": true, "unreadMessages": 1}');
    logInAs(2);
    const { user } = renderApp('/');
    // The count is read once the chat knows the profile, as the dock that tells of replies does.
    await screen.findByRole('button', { name: 'Messages from the Acme Logistics hiring team, 1 unread' });
    // The applicant's own message (from another tab) is no news.
    push('chat', '{"kind": "message", "messageId": 12, "sender": "subject"}');
    state.messages = [
      ...state.messages,
      chatMessage({ id: 13, sender: 'employer', senderName: 'Acme HR', message: 'Any questions?' }),
    ];
    state.unread = 2;
    push('chat', '{"kind": "message", "messageId": 13, "sender": "employer"}');
    expect(await screen.findByText('New message from Acme Logistics hiring team')).toBeInTheDocument();
    expect(screen.getAllByText(/^New message from/)).toHaveLength(1);
    // From the keyboard: under load, a pointer may still find the toast entering its viewport, which
    // lets no pointer through (pointer-events: none) until the toast is in place.
    screen.getByRole('button', { name: 'Open' }).focus();
    await user.keyboard('{Enter}');
    const panel = await screen.findByRole('dialog', { name: 'Message Acme Logistics hiring team' });
    expect(await within(panel).findByText('Any questions?')).toBeInTheDocument();
  });

  it('is reachable from the page: the top bar’s Messages, with the unread count, opens the panel and takes focus back', async () => {
    serveChat([], 2);
    logInAs(2);
    const { user } = renderApp('/');
    const messages = await screen.findByRole('button', {
      name: 'Messages from the Acme Logistics hiring team, 2 unread',
    });
    expect(messages).toHaveTextContent('Messages');
    expect(within(messages).getByTestId('messages-badge')).toHaveTextContent('2');
    messages.focus();
    await user.keyboard('{Enter}');
    const panel = await screen.findByRole('dialog', { name: 'Message Acme Logistics hiring team' });
    expect(panel).toHaveTextContent('Replies come from the Acme Logistics hiring team');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(messages).toHaveFocus());
  });

  it('on a phone does not speak of Shift+Enter: Enter starts a new line, the Send button sends', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query.includes('(pointer: coarse)') }));
    const state = serveChat([]);
    server.use(
      http.post(CHAT, async ({ request }) => {
        state.posts.push(await request.json());
        return HttpResponse.json(chatMessage({ id: 9 }), { status: 201 });
      }),
    );
    const { user, panel } = await openChat();
    expect(panel).not.toHaveTextContent('Shift');
    expect(panel).toHaveTextContent('Use the Send button to send your message.');
    const box = within(panel).getByRole('textbox', { name: 'Message' });
    await user.type(box, 'Line one{Enter}Line two');
    expect(state.posts).toEqual([]);
    expect(box).toHaveValue('Line one\nLine two');
    await user.click(within(panel).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(state.posts).toEqual([{ message: 'Line one\nLine two' }]));
    vi.unstubAllGlobals();
  });

  it('is not shown, nor Messages, nor the menu entry, when the company’s chat is off', async () => {
    serveChat([], 3);
    logInAs(2, { settings: companySettings({ company_subject_chat: false }) });
    const { user } = renderApp('/');
    const trigger = await screen.findByRole('button', { name: 'User menu' });
    expect(screen.queryByTestId('unread-badge')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Messages/ })).not.toBeInTheDocument();
    await user.click(trigger);
    await screen.findByRole('menu');
    expect(screen.queryByRole('menuitem', { name: /hiring team/ })).not.toBeInTheDocument();
    expect(queryClient.getQueryData(companySettingsQuery(1).queryKey)).toBeTruthy();
  });
});
