import { describe, expect, it } from 'vitest';
import { createSseParser, type ServerSentEvent } from '../sse';

function parse(chunks: string[]) {
  const events: ServerSentEvent[] = [];
  const retries: number[] = [];
  const parser = createSseParser({ onEvent: (e) => events.push(e), onRetry: (ms) => retries.push(ms) });
  for (const chunk of chunks) parser.push(chunk);
  return { events, retries };
}

describe('the event-stream parser', () => {
  const cases: { name: string; chunks: string[]; events: ServerSentEvent[]; retries?: number[] }[] = [
    {
      name: 'reads the chat stream: retry, ready, a comment, a chat event',
      chunks: [
        'retry: 3000\nevent: ready\ndata: {"unreadMessages": 2}\n\n: keep-alive\n\nevent: chat\ndata: {"kind": "read"}\n\n',
      ],
      events: [
        { event: 'ready', data: '{"unreadMessages": 2}' },
        { event: 'chat', data: '{"kind": "read"}' },
      ],
      retries: [3000],
    },
    {
      name: 'joins an event split anywhere across chunks',
      chunks: ['eve', 'nt: chat\nda', 'ta: {"kind"', ': "message"}\n', '\n'],
      events: [{ event: 'chat', data: '{"kind": "message"}' }],
    },
    {
      name: 'takes CRLF and CR line ends, also a CRLF split between chunks',
      chunks: ['event: chat\r', '\ndata: a\r\rdata: b\r\n\r\n'],
      events: [
        { event: 'chat', data: 'a' },
        { event: 'message', data: 'b' },
      ],
    },
    {
      name: 'joins several data lines with a newline; an event without data is not dispatched',
      chunks: ['data: one\ndata:two\n\nevent: empty\n\n'],
      events: [{ event: 'message', data: 'one\ntwo' }],
    },
    {
      name: 'ignores a retry that is not a number, unknown fields and a comment',
      chunks: ['retry: soon\nfoo: bar\n: hello\ndata: x\n\n'],
      events: [{ event: 'message', data: 'x' }],
      retries: [],
    },
    {
      name: 'keeps an incomplete event until its empty line arrives',
      chunks: ['event: chat\ndata: x\n'],
      events: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { events, retries } = parse(c.chunks);
      expect(events).toEqual(c.events);
      if (c.retries) expect(retries).toEqual(c.retries);
    });
  }
});
