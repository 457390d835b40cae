// A parser for text/event-stream (the HTML standard's "event stream interpretation"), for the chat's
// event stream read with fetch: EventSource cannot send the bearer header.

export type ServerSentEvent = {
  /** The `event:` field; 'message' when the server gave none. */
  event: string;
  data: string;
  id?: string;
};

export type SseHandlers = {
  onEvent: (event: ServerSentEvent) => void;
  /** The server's `retry:` in milliseconds: how long to wait before reconnecting. */
  onRetry?: (milliseconds: number) => void;
};

/** Feed it the stream's text as it arrives, in chunks of any size; it calls back per complete event. */
export function createSseParser({ onEvent, onRetry }: SseHandlers) {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | undefined;
  // A chunk that ended in "\r" may continue with "\n": the same line end, not an empty line.
  let skipNewline = false;

  function dispatch() {
    if (data.length > 0) onEvent({ event: event || 'message', data: data.join('\n'), ...(id ? { id } : {}) });
    event = '';
    data = [];
  }

  function line(text: string) {
    if (text === '') {
      dispatch();
      return;
    }
    // A comment (": keep-alive").
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) onRetry?.(Number(value));
  }

  return {
    push(chunk: string) {
      if (skipNewline && chunk.startsWith('\n')) chunk = chunk.slice(1);
      skipNewline = false;
      buffer += chunk;
      for (;;) {
        const end = buffer.search(/[\r\n]/);
        if (end < 0) break;
        const text = buffer.slice(0, end);
        if (buffer[end] === '\r') {
          if (end + 1 === buffer.length) skipNewline = true;
          else if (buffer[end + 1] === '\n') buffer = buffer.slice(0, end) + buffer.slice(end + 1);
        }
        buffer = buffer.slice(end + 1);
        line(text);
      }
    },
  };
}
