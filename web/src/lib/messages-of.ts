// Message objects for modules that name several messages at once (a form's "saved" and "failed").
// Not in lib/i18n.ts: /login needs none of them, and pays nothing for it here.
import { t, type MessageKey } from './i18n';

/**
 * An object whose every property is the message of its key, made each time it is read: a message
 * made when its module is imported would stay English, since modules load before main.tsx has chosen
 * the language. `rest`'s own properties (functions, constants) are kept beside them as they are.
 */
export function messagesOf<const K extends Record<string, MessageKey>, R extends object = object>(
  keys: K,
  rest = {} as R,
): Readonly<Record<keyof K, string>> & R {
  for (const [name, key] of Object.entries(keys))
    Object.defineProperty(rest, name, { get: () => t(key), enumerable: true });
  return rest as Readonly<Record<keyof K, string>> & R;
}
