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
  /** The screening provider that runs the portal: shown on the login page, the welcome step and every footer. */
  brand: Brand;
  /** The identity-verification provider's page, with {id} and {token} for the session's (framed on /idv). */
  idvPageUrl: string;
  /** The support widget's script (--chat-widget-url); '' means none. Loaded only when chat is on. */
  chatWidgetUrl: string;
};

export type Brand = {
  name: string;
  /** '' means the built-in wordmark (components/logo). */
  logoUrl: string;
  supportEmail: string;
  supportPhone: string;
  privacyPolicyUrl: string;
};

export const CONFIG_PLACEHOLDER = '__PORTAL_CONFIG__';

export const defaultConfig: PortalConfig = {
  apiBaseUrl: '/',
  clientId: 'portal-spa',
  clientSecret: 'portal-spa-secret',
  features: { subjectChat: true },
  // A fictional provider for the demo and for development; deployments set
  // --brand-name, --brand-logo-url, --brand-support-email, --brand-support-phone
  // and --brand-privacy-url.
  brand: {
    name: 'ClearPath Screening',
    logoUrl: '',
    supportEmail: 'support@clearpath.example',
    supportPhone: '+1 (555) 010-0199',
    privacyPolicyUrl: '/privacy',
  },
  idvPageUrl: '/sandbox/idv/{id}?token={token}',
  chatWidgetUrl: '',
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
      brand: brandOf(raw.brand),
      idvPageUrl: raw.idvPageUrl || defaultConfig.idvPageUrl,
      chatWidgetUrl: typeof raw.chatWidgetUrl === 'string' ? raw.chatWidgetUrl : defaultConfig.chatWidgetUrl,
    };
  } catch {
    return defaultConfig;
  }
}

/** The server's brand, each field falling back to the demo's when absent or empty (a logo of '' stays: the wordmark). */
function brandOf(raw: Partial<Brand> | undefined): Brand {
  const fallback = defaultConfig.brand;
  if (!raw) return fallback;
  return {
    name: raw.name || fallback.name,
    logoUrl: typeof raw.logoUrl === 'string' ? raw.logoUrl : fallback.logoUrl,
    supportEmail: raw.supportEmail || fallback.supportEmail,
    supportPhone: raw.supportPhone || fallback.supportPhone,
    privacyPolicyUrl: raw.privacyPolicyUrl || fallback.privacyPolicyUrl,
  };
}

function readConfig(): PortalConfig {
  if (typeof document === 'undefined') return defaultConfig;
  const meta = document.querySelector<HTMLMetaElement>('meta[name="portal-config"]');
  return parseConfig(meta?.content);
}

export const config: PortalConfig = readConfig();
