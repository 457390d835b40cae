// Every user-facing string comes from the message catalogue (src/locales).
// Callers use t(key, values); which library formats the message is this
// module's business alone. The library is @nanostores/i18n: of the candidates
// measured on /login it adds the least (about 1.5 kB gzip, against 8 to 17 kB
// for Lingui, FormatJS and i18next; docs/architecture.md has the figures).
// en-US is the only locale (spec section 9), so no React hook re-renders on a
// locale change; one would read an area's store with @nanostores/react.
//
// The areas every page may need (common, errors, and the login page's auth,
// layout and ui) load with the app. The areas of one feature (legal, personal,
// setup) load with that feature: each module that names their keys imports
// the feature's lib/messages.ts first, which adds them here. That keeps them
// off /login's first load (its 140 kB budget).
import { createI18n, transform } from '@nanostores/i18n';
import { atom } from 'nanostores';
import auth from '@/locales/en-US/auth.json';
import common from '@/locales/en-US/common.json';
import errors from '@/locales/en-US/errors.json';
import layout from '@/locales/en-US/layout.json';
import ui from '@/locales/en-US/ui.json';
import type { enUS } from '@/locales/en-US/messages';
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
  message.replace(/\{(\w+)\}/g, (whole, name: string) => (values && name in values ? String(values[name]) : whole)),
);

const locale = atom(LOCALE);
const i18n = createI18n(locale, {
  baseLocale: LOCALE,
  // en-US is the base locale and ships with the code: nothing to fetch.
  get: () => Promise.resolve({}),
});

const formats: Record<string, Format> = {};
const added = new Set<string>();

/** Adds one area's messages (an i18n component of the library); adding an area twice does nothing. */
export function addMessages(area: string, messages: Record<string, string>) {
  if (added.has(area)) return;
  added.add(area);
  const store = i18n(
    area,
    Object.fromEntries(Object.entries(messages).map(([key, message]) => [key, placeholders(message)])),
  );
  Object.assign(formats, store.get());
}

addMessages('common', common);
addMessages('errors', errors);
addMessages('auth', auth);
addMessages('layout', layout);
addMessages('ui', ui);

/** The message for key with {name} placeholders filled from values. */
export function t(key: MessageKey, values?: MessageValues): string {
  const format = formats[key];
  return format ? format(values) : key;
}
