// Every URL of the app in one table (spec section 2). Routes use `path`;
// links and redirects use `getHref`. The patterns come from the file the
// server embeds too (internal/portal/contract/routes.json): it answers 404
// for every other path.
import routes from '@contract/routes.json';

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
  home: fixed(routes.home),
  // public
  login: fixed(routes.login),
  account: fixed(routes.account),
  reset: { path: routes.reset, getHref: (token?: string | null) => withToken(routes.reset, token) },
  confirmEmail: {
    path: routes.confirmEmail,
    getHref: (token?: string | null) => withToken(routes.confirmEmail, token),
  },
  /** The design system's gallery (components/ui in every state). */
  ui: fixed(routes.ui),
  /** The demo's sample privacy notice: the default --brand-privacy-url. */
  privacy: fixed(routes.privacy),
  register: {
    path: routes.register,
    getHref: (token?: string) => (token ? `/register/${encodeURIComponent(token)}` : '/register'),
  },
  /** A handoff link from another device: signs in once and opens the page it names. */
  continue: { path: routes.continue, getHref: (token?: string | null) => withToken(routes.continue, token) },
  /** An invitation or reset link that no longer works: what happened, and "Send me a new link". */
  newLink: {
    path: routes.newLink,
    getHref: (kind: 'invitation' | 'reset', token?: string | null) =>
      `${routes.newLink}?kind=${kind}${token ? `&token=${encodeURIComponent(token)}` : ''}`,
  },
  /** The one-click stop link of a reminder e-mail or text. */
  stopReminders: {
    path: routes.stopReminders,
    getHref: (token?: string | null) => withToken(routes.stopReminders, token),
  },
  // finalization-complete
  collectionSiteUpdate: fixed(routes.collectionSiteUpdate),
  /** The background report in the viewer, after re-confirming identity; `kind` another report. */
  report: {
    path: routes.report,
    getHref: (kind?: 'drug-report' | 'ecoc-form') => (kind ? `${routes.report}?kind=${kind}` : routes.report),
  },
  disputes: fixed(routes.disputes),
  /** A new dispute, of one service when `service` (its code) is given. */
  disputeNew: {
    path: routes.disputeNew,
    getHref: (service?: string) =>
      service ? `${routes.disputeNew}?service=${encodeURIComponent(service)}` : routes.disputeNew,
  },
  dispute: { path: routes.dispute, getHref: (id: number | string) => `/disputes/${encodeURIComponent(String(id))}` },
  adverseAction: fixed(routes.adverseAction),
  // new
  setup: { path: routes.setup, getHref: (token?: string | null) => withToken(routes.setup, token) },
  // setup-complete
  additionalDocuments: fixed(routes.additionalDocuments),
  addresses: fixed(routes.addresses),
  aliases: fixed(routes.aliases),
  confirmation: fixed(routes.confirmation),
  credential: fixed(routes.credential),
  education: fixed(routes.education),
  employment: fixed(routes.employment),
  fillablePdfForm: fixed(routes.fillablePdfForm),
  personal: fixed(routes.personal),
  personalData: fixed(routes.personalData),
  professional: fixed(routes.professional),
  profile: fixed(routes.profile),
  // idv-started
  idv: fixed(routes.idv),
  idvSuccess: fixed(routes.idvSuccess),
  // MRO-site-selection-started
  collectionSite: fixed(routes.collectionSite),
  // self-pay-required
  selfPay: fixed(routes.selfPay),
  // setup-complete or finalization-complete
  print: {
    path: routes.print,
    getHref: (type: string) => `/print/${kebabCase(type)}`,
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
