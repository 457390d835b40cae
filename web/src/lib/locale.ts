// The app's language (issue 26): es-US beside en-US. It is chosen once, at
// start, from the locale cookie (spec: 365 days), else the browser's
// languages, else en-US, and written back to the cookie, which is also how
// the server learns it (every request carries the cookie). Switching
// language writes the cookie and reloads: every string on the page, the
// server's lookups and legal texts included, comes back in the new language,
// and the session lives in sessionStorage, so it survives the reload.
export const LOCALES = ['en-US', 'es-US'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en-US';
export const LOCALE_COOKIE = 'locale';
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

function supported(tag: string | undefined | null): Locale | null {
  if (!tag) return null;
  const lower = tag.toLowerCase();
  // Any Spanish (es, es-MX, es-419) reads es-US; any English reads en-US.
  return LOCALES.find((locale) => locale.toLowerCase() === lower || locale.slice(0, 2) === lower.slice(0, 2)) ?? null;
}

function cookieLocale(): string | null {
  const match = document.cookie.match(/(?:^|;\s*)locale=([^;]*)/);
  return match ? decodeURIComponent(match[1]) : null;
}

/** The cookie's language when it names one the app has, else the browser's first that it has, else en-US. */
export function chooseLocale(
  cookie = cookieLocale(),
  languages: readonly string[] = navigator.languages ?? [],
): Locale {
  return supported(cookie) ?? languages.map(supported).find((locale) => locale !== null) ?? DEFAULT_LOCALE;
}

let current: Locale = DEFAULT_LOCALE;

/** The language the app speaks now: what Intl formats and the catalogue use. */
export function currentLocale(): Locale {
  return current;
}

export function setLocaleCookie(locale: Locale = current) {
  current = locale;
  document.cookie = `${LOCALE_COOKIE}=${encodeURIComponent(locale)}; max-age=${ONE_YEAR_SECONDS}; path=/; samesite=lax`;
  document.documentElement.lang = locale;
}
