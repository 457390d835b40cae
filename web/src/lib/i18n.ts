// Every user-facing string comes from the message catalogue (src/locales).
// Callers use t(key, values); which library formats the message is this
// module's business alone. The library is @nanostores/i18n: of the candidates
// measured on /login it adds the least (about 1.3 kB gzip, against 8 to 17 kB
// for Lingui, FormatJS and i18next; docs/architecture.md has the figures).
// en-US is the only locale (spec section 9), so no React hook re-renders on a
// locale change; one would read `messages` with @nanostores/react's useStore.
import { createI18n, transform } from '@nanostores/i18n';
import { atom } from 'nanostores';
import { enUS } from '@/locales/en-US/messages';
import { LOCALE } from './locale';

export type MessageKey = keyof typeof enUS;
export type MessageValues = Record<string, string | number>;
type Format = (values?: MessageValues) => string;

/**
 * Fills {name} placeholders; one without a value stays as written, so a
 * missing value shows in the text instead of vanishing. A replacer function,
 * not a replacement string, so a value with "$" in it (an amount) stays as is.
 */
const placeholders = transform((_locale: string, message: string, values?: MessageValues) =>
  message.replace(/\{(\w+)\}/g, (whole, name: string) =>
    values && name in values ? String(values[name]) : whole,
  ),
);

const locale = atom(LOCALE);
const i18n = createI18n(locale, {
  baseLocale: LOCALE,
  // en-US is the base locale and ships with the code: nothing to fetch.
  get: () => Promise.resolve({}),
});

/** The whole catalogue as one i18n component: every message takes optional values. */
export const messages = i18n(
  'app',
  Object.fromEntries(
    Object.entries(enUS as Record<string, string>).map(([key, message]) => [key, placeholders(message)]),
  ),
);

/** The message for key with {name} placeholders filled from values. */
export function t(key: MessageKey, values?: MessageValues): string {
  const format = (messages.get() as Record<string, Format | undefined>)[key];
  return format ? format(values) : key;
}
