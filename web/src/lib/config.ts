// Runtime configuration handed over by the Go server in
// <meta name="portal-config" content="{json}"> (not baked into the build, so one
// build serves every deployment). In Vite dev and tests the placeholder is left
// as is and the defaults apply.

export type PortalConfig = {
  apiBaseUrl: string;
  clientId: string;
  clientSecret: string;
  features: {
    subjectChat: boolean;
  };
};

export const CONFIG_PLACEHOLDER = '__PORTAL_CONFIG__';

export const defaultConfig: PortalConfig = {
  apiBaseUrl: '/',
  clientId: 'portal-spa',
  clientSecret: 'portal-spa-secret',
  features: { subjectChat: true },
};

export function parseConfig(content: string | null | undefined): PortalConfig {
  if (!content || content === CONFIG_PLACEHOLDER) return defaultConfig;
  try {
    const raw = JSON.parse(content) as Partial<PortalConfig>;
    return {
      apiBaseUrl: raw.apiBaseUrl || defaultConfig.apiBaseUrl,
      clientId: raw.clientId || defaultConfig.clientId,
      clientSecret: raw.clientSecret || defaultConfig.clientSecret,
      features: { ...defaultConfig.features, ...raw.features },
    };
  } catch {
    return defaultConfig;
  }
}

function readConfig(): PortalConfig {
  if (typeof document === 'undefined') return defaultConfig;
  const meta = document.querySelector<HTMLMetaElement>('meta[name="portal-config"]');
  return parseConfig(meta?.content);
}

export const config: PortalConfig = readConfig();
