import { afterEach, describe, expect, it } from 'vitest';
import { chooseLocale, setLocaleCookie } from '@/lib/locale';

afterEach(() => setLocaleCookie('en-US'));

describe('chooseLocale', () => {
  it.each([
    { case: 'the cookie before the browser', cookie: 'es-US', languages: ['en-US'], chosen: 'es-US' },
    { case: 'the cookie (English) before a Spanish browser', cookie: 'en-US', languages: ['es-MX'], chosen: 'en-US' },
    { case: 'the cookie (Spanish)', cookie: 'es-US', languages: [], chosen: 'es-US' },
    { case: 'the browser when no cookie', cookie: null, languages: ['es-MX', 'en-US'], chosen: 'es-US' },
    { case: "the browser's first language the app has", cookie: null, languages: ['fr-FR', 'es'], chosen: 'es-US' },
    {
      case: 'the browser when the cookie names a language the app lacks',
      cookie: 'fr-FR',
      languages: ['es-419'],
      chosen: 'es-US',
    },
    { case: 'en-US when neither names one the app has', cookie: 'de', languages: ['fr-FR', 'pt-BR'], chosen: 'en-US' },
    { case: 'en-US with nothing to go by', cookie: null, languages: [], chosen: 'en-US' },
  ])('chooses $case', ({ cookie, languages, chosen }) => {
    expect(chooseLocale(cookie, languages)).toBe(chosen);
  });

  it('reads the locale cookie the switch writes', () => {
    setLocaleCookie('es-US');
    expect(chooseLocale(undefined, ['en-US'])).toBe('es-US');
  });
});
