import { describe, expect, it } from 'vitest';
import { defaultConfig, parseConfig } from '@/lib/config';
import { setLocaleCookie } from '@/lib/locale';

describe('runtime configuration', () => {
  it('falls back to the defaults while the server has not replaced the placeholder', () => {
    expect(parseConfig('__PORTAL_CONFIG__')).toEqual({
      apiBaseUrl: '/',
      clientId: 'portal-spa',
      clientSecret: 'portal-spa-secret',
      features: { subjectChat: true },
    });
    expect(parseConfig(null)).toBe(defaultConfig);
    expect(parseConfig('{not json')).toBe(defaultConfig);
  });

  it('reads what the server put into the meta tag', () => {
    const content = '{"apiBaseUrl":"/portal/","clientId":"spa-2","clientSecret":"s2","features":{"subjectChat":false}}';
    expect(parseConfig(content)).toEqual({
      apiBaseUrl: '/portal/',
      clientId: 'spa-2',
      clientSecret: 's2',
      features: { subjectChat: false },
    });
  });
});

describe('locale', () => {
  it('sets the en-US locale cookie and the document language', () => {
    setLocaleCookie();
    expect(document.cookie).toContain('locale=en-US');
    expect(document.documentElement.lang).toBe('en-US');
  });
});
