import { describe, expect, it, vi } from 'vitest';
import { defaultConfig, parseConfig } from '@/lib/config';
import { setLocaleCookie } from '@/lib/locale';

describe('runtime configuration', () => {
  it('falls back to the defaults while the server has not replaced the placeholder', () => {
    expect(parseConfig('__PORTAL_CONFIG__')).toEqual({
      apiBaseUrl: '/',
      clientId: 'portal-spa',
      clientSecret: 'portal-spa-secret',
      features: { subjectChat: true },
      brand: {
        name: 'ClearPath Screening',
        logoUrl: '',
        supportEmail: 'support@clearpath.example',
        supportPhone: '+1 (555) 010-0199',
        privacyPolicyUrl: '/privacy',
      },
      idvPageUrl: '/sandbox/idv/{id}?token={token}',
      chatWidgetUrl: '',
    });
    expect(parseConfig(null)).toBe(defaultConfig);
    expect(parseConfig('{not json')).toBe(defaultConfig);
  });

  it('reads what the server put into the meta tag', () => {
    const content =
      '{"apiBaseUrl":"/portal/","clientId":"spa-2","clientSecret":"s2","features":{"subjectChat":false},"idvPageUrl":"https://verify.example/s/{id}?t={token}","chatWidgetUrl":"https://widget.example.net/w.js"}';
    expect(parseConfig(content)).toEqual({
      apiBaseUrl: '/portal/',
      clientId: 'spa-2',
      clientSecret: 's2',
      features: { subjectChat: false },
      brand: defaultConfig.brand,
      idvPageUrl: 'https://verify.example/s/{id}?t={token}',
      chatWidgetUrl: 'https://widget.example.net/w.js',
    });
  });

  it("reads the provider's brand from the server, each missing field falling back to the demo's", () => {
    const content = JSON.stringify({
      brand: {
        name: 'Northwind Checks',
        logoUrl: 'https://cdn.example/nw.svg',
        supportEmail: 'help@nw.example',
        supportPhone: '',
        privacyPolicyUrl: '',
      },
    });
    expect(parseConfig(content).brand).toEqual({
      name: 'Northwind Checks',
      logoUrl: 'https://cdn.example/nw.svg',
      supportEmail: 'help@nw.example',
      supportPhone: '+1 (555) 010-0199',
      privacyPolicyUrl: '/privacy',
    });
  });
});

describe('locale', () => {
  it('sets the en-US locale cookie and the document language', () => {
    setLocaleCookie();
    expect(document.cookie).toContain('locale=en-US');
    expect(document.documentElement.lang).toBe('en-US');
  });

  it('keeps the locale cookie for 365 days (max-age 31536000), for the whole site', () => {
    // document.cookie reads back names and values only; the attributes are seen where it is set.
    const written = vi.spyOn(document, 'cookie', 'set');
    setLocaleCookie();
    expect(written).toHaveBeenCalledTimes(1);
    const attributes = written.mock.calls[0][0].split(';').map((part) => part.trim());
    expect(attributes).toContain('locale=en-US');
    expect(attributes).toContain('max-age=31536000');
    expect(attributes).toContain('path=/');
  });
});
