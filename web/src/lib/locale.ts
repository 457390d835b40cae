// en-US is the only language (spec section 1); the cookie tells the server too.
export const LOCALE = 'en-US';
export const LOCALE_COOKIE = 'locale';
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

export function setLocaleCookie(locale = LOCALE) {
  document.cookie = `${LOCALE_COOKIE}=${encodeURIComponent(locale)}; max-age=${ONE_YEAR_SECONDS}; path=/; samesite=lax`;
  document.documentElement.lang = locale;
}
