// Every URL of the app in one table (spec section 2). Routes use `path`;
// links and redirects use `getHref`.

function withToken(path: string, token?: string | null) {
  return token ? `${path}?token=${encodeURIComponent(token)}` : path;
}

/** Print pages use the kebab-case form of the document type (californiaDisclosure -> california-disclosure). */
export function kebabCase(value: string): string {
  return value
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/[\s_]+/g, '-')
    .toLowerCase();
}

const fixed = (path: string) => ({ path, getHref: () => path });

export const paths = {
  home: fixed('/'),
  // public
  login: fixed('/login'),
  account: fixed('/account'),
  reset: { path: '/reset', getHref: (token?: string | null) => withToken('/reset', token) },
  confirmEmail: { path: '/confirm-email', getHref: (token?: string | null) => withToken('/confirm-email', token) },
  /** The design system's gallery (components/ui in every state). */
  ui: fixed('/ui'),
  /** The demo's sample privacy notice: the default --brand-privacy-url. */
  privacy: fixed('/privacy'),
  register: {
    path: '/register/:token?',
    getHref: (token?: string) => (token ? `/register/${encodeURIComponent(token)}` : '/register'),
  },
  // finalization-complete
  collectionSiteUpdate: fixed('/collection-site-update'),
  // new
  setup: { path: '/setup', getHref: (token?: string | null) => withToken('/setup', token) },
  // setup-complete
  additionalDocuments: fixed('/additional-documents'),
  addresses: fixed('/addresses'),
  aliases: fixed('/aliases'),
  confirmation: fixed('/confirmation'),
  credential: fixed('/credential'),
  education: fixed('/education'),
  employment: fixed('/employment'),
  fillablePdfForm: fixed('/fillable-pdf-form'),
  personal: fixed('/personal'),
  personalData: fixed('/personal-data'),
  professional: fixed('/professional'),
  profile: fixed('/profile'),
  // idv-started
  idv: fixed('/idv'),
  idvSuccess: fixed('/idv/success'),
  // MRO-site-selection-started
  collectionSite: fixed('/collection-site'),
  // self-pay-required
  selfPay: fixed('/self-pay'),
  // setup-complete or finalization-complete
  print: {
    path: '/print/:type?',
    getHref: (type?: string) => (type ? `/print/${kebabCase(type)}` : '/print'),
  },
} as const;

/** The legal document types with a print page (kebab-case, as in the URL). */
export const printDocumentTypes = [
  'authorization',
  'california-disclosure',
  'disclosure',
  'dot-release',
  'esign',
  'investigative',
  'rights',
  'rightslinks',
  'statedisclose',
] as const;
