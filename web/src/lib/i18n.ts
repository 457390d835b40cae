// Every user-facing string comes from the message catalogue (src/locales).
// Callers use t(key, values); which library formats the message is this
// module's business alone.
import { enUS } from '@/locales/en-US';

export type MessageKey = keyof typeof enUS;
export type MessageValues = Record<string, string | number>;

const catalogue: Record<string, string> = enUS;

/** The message for key with {name} placeholders filled from values. */
export function t(key: MessageKey, values?: MessageValues): string {
  const message = catalogue[key] ?? key;
  if (!values) return message;
  return message.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}
