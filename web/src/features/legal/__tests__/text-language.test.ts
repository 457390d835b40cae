import { afterEach, describe, expect, it } from 'vitest';
import { setLocaleCookie } from '@/lib/locale';
import { textLang } from '../lib/text-language';

describe('textLang', () => {
  afterEach(() => setLocaleCookie('en-US'));

  it.each([
    ['marks an English text on a Spanish page', 'es-US', 'en-US', { lang: 'en-US' }],
    ['marks a Spanish text on an English page', 'en-US', 'es-US', { lang: 'es-US' }],
    ['leaves a text in the page language alone', 'es-US', 'es-US', {}],
    ['leaves a text of unknown language alone', 'es-US', undefined, {}],
  ] as const)('%s', (_, page, language, want) => {
    setLocaleCookie(page);
    expect(textLang(language)).toEqual(want);
  });
});
