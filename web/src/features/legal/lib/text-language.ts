import { currentLocale } from '@/lib/locale';

/**
 * The lang attribute of a legal text (or title) the server served in another language than the page's: a
 * document with no Spanish version is served in English on a Spanish page, and a screen reader must read it
 * as English (WCAG 3.1.2). Nothing when the text is in the page's language.
 */
export const textLang = (language: string | undefined): { lang?: string } =>
  language && language !== currentLocale() ? { lang: language } : {};
