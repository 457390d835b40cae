// Every user-facing string comes from the message catalogue (src/locales), in
// the language lib/locale.ts chose.
// Callers use t(key, values); how a message is formatted is this module's
// business alone. It is our own formatter: the messages need no more than
// {name} placeholders, and a library (@nanostores/i18n was used until issue
// 25) costs /login more than a kilobyte of its 140 kB budget
// (docs/architecture.md has the figures).
//
// The areas every page may need (common, errors, and the login page's auth,
// layout and ui) load with the app. The areas of one feature (legal, personal,
// setup) load with that feature: each module that names their keys imports
// the feature's lib/messages.ts first, which adds them here. That keeps them
// off /login's first load.
import auth from '@/locales/en-US/auth.json';
import common from '@/locales/en-US/common.json';
import errors from '@/locales/en-US/errors.json';
import layout from '@/locales/en-US/layout.json';
import ui from '@/locales/en-US/ui.json';
import type { enUS } from '@/locales/en-US/messages';
import { currentLocale, DEFAULT_LOCALE } from './locale';

export type MessageKey = keyof typeof enUS;
export type MessageValues = Record<string, string | number>;

const messages: Record<string, string> = {};
const added = new Set<string>();
/**
 * The catalogue of the chosen language when it is not en-US: all its areas at once, loaded before the
 * app renders (loadCatalogue), so en-US visitors never download it. The en-US catalogue stays the
 * fallback, though the catalogue tests keep both complete.
 */
let translated: Record<string, string> = {};

/** Loads the catalogue of the chosen language (lib/locale.ts); en-US is built in. */
export async function loadCatalogue(): Promise<void> {
  if (currentLocale() === DEFAULT_LOCALE) return;
  translated = (await import('@/locales/es-US/messages')).esUS;
}

/** Adds one area's messages; adding an area twice does nothing. */
export function addMessages(area: string, areaMessages: Record<string, string>) {
  if (added.has(area)) return;
  added.add(area);
  Object.assign(messages, areaMessages);
}

addMessages('common', common);
addMessages('errors', errors);
addMessages('auth', auth);
addMessages('layout', layout);
addMessages('ui', ui);

/** The message for key with {name} placeholders filled from values. */
export function t(key: MessageKey, values?: MessageValues): string {
  const message = translated[key] ?? messages[key];
  if (message === undefined) return key;
  // A placeholder without a value stays as written, so a missing value shows in the text instead of
  // vanishing. A replacer function, not a replacement string, so a value with "$" in it (an amount)
  // stays as is.
  return values
    ? message.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole))
    : message;
}
