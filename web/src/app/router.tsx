// Every route of spec section 2 with its guard and layout. Pages load lazily
// (one chunk per screen); the guards are small and load with the app.
import { lazy, type ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { ProgressBar } from '@/components/progress-bar/progress-bar';
import { paths } from '@/config/paths';
import type { SubjectStatus } from '@/lib/subject-status';
import { guardLoader, type RouteAccess } from './guards';
import { BlankLayout } from './layouts/blank-layout';
import { PublicLayout } from './layouts/public-layout';
import { RootLayout, type RouteHandle } from './layouts/root-layout';
import { NotFoundRoute } from './routes/not-found';
import { FramedRouteErrorBoundary, RouteErrorBoundary } from './routes/route-error';
import { t, type MessageKey } from '@/lib/i18n';

type LazyPage = () => Promise<{ Component: ComponentType }>;

export type PageRoute = {
  path: string;
  /** The title's key: a message made at import would be English before the catalogue loads (lib/i18n.ts). */
  title: MessageKey;
  access: RouteAccess;
  layout: 'default' | 'public' | 'blank';
  page: LazyPage;
};

const publicAccess: RouteAccess = { kind: 'public' };
const only = (...statuses: SubjectStatus[]): RouteAccess => ({ kind: 'status', statuses });
const setupComplete = only('setup-complete');

/** The route table: path, who may open it, which layout frames it, and its page. */
export const pageRoutes: PageRoute[] = [
  // Public
  {
    path: paths.login.path,
    title: 'common.route.login',
    access: publicAccess,
    layout: 'public',
    page: () => import('./routes/login').then((m) => ({ Component: m.LoginRoute })),
  },
  {
    path: paths.reset.path,
    title: 'common.route.resetPassword',
    access: publicAccess,
    layout: 'public',
    page: () => import('./routes/reset').then((m) => ({ Component: m.ResetRoute })),
  },
  {
    path: paths.confirmEmail.path,
    title: 'common.route.confirmEmailAddress',
    access: publicAccess,
    layout: 'public',
    page: () => import('./routes/confirm-email').then((m) => ({ Component: m.ConfirmEmailRoute })),
  },
  {
    path: paths.ui.path,
    title: 'ui.route.title',
    access: publicAccess,
    layout: 'public',
    page: () => import('./routes/ui').then((m) => ({ Component: m.UiRoute })),
  },
  {
    path: paths.privacy.path,
    title: 'common.route.privacy',
    access: publicAccess,
    layout: 'public',
    page: () => import('./routes/privacy').then((m) => ({ Component: m.PrivacyRoute })),
  },
  {
    path: paths.account.path,
    title: 'common.route.account',
    access: publicAccess,
    layout: 'public',
    page: () => import('./routes/account').then((m) => ({ Component: m.AccountRoute })),
  },
  {
    path: paths.register.path,
    title: 'common.route.register',
    access: publicAccess,
    layout: 'public',
    page: () => import('./routes/register').then((m) => ({ Component: m.RegisterRoute })),
  },
  {
    path: paths.continue.path,
    title: 'common.route.continue',
    access: publicAccess,
    layout: 'public',
    page: () => import('./routes/continue').then((m) => ({ Component: m.ContinueRoute })),
  },
  {
    path: paths.newLink.path,
    title: 'common.route.newLink',
    access: publicAccess,
    layout: 'public',
    page: () => import('./routes/new-link').then((m) => ({ Component: m.NewLinkRoute })),
  },
  {
    path: paths.stopReminders.path,
    title: 'common.route.stopReminders',
    access: publicAccess,
    layout: 'public',
    page: () => import('./routes/stop-reminders').then((m) => ({ Component: m.StopRemindersRoute })),
  },
  // finalization-complete
  {
    path: paths.home.path,
    title: 'common.route.home',
    access: only('finalization-complete'),
    layout: 'default',
    page: () => import('./routes/home').then((m) => ({ Component: m.HomeRoute })),
  },
  {
    path: paths.collectionSiteUpdate.path,
    title: 'common.route.updateCollectionSite',
    access: only('finalization-complete'),
    layout: 'default',
    page: () => import('./routes/collection-site').then((m) => ({ Component: m.CollectionSiteUpdateRoute })),
  },
  {
    path: paths.report.path,
    title: 'common.route.report',
    access: only('finalization-complete'),
    layout: 'default',
    page: () => import('./routes/report').then((m) => ({ Component: m.ReportRoute })),
  },
  {
    path: paths.disputes.path,
    title: 'common.route.disputes',
    access: only('finalization-complete'),
    layout: 'default',
    page: () => import('./routes/disputes').then((m) => ({ Component: m.DisputesRoute })),
  },
  {
    path: paths.disputeNew.path,
    title: 'common.route.disputeNew',
    access: only('finalization-complete'),
    layout: 'default',
    page: () => import('./routes/disputes').then((m) => ({ Component: m.DisputeNewRoute })),
  },
  {
    path: paths.dispute.path,
    title: 'common.route.dispute',
    access: only('finalization-complete'),
    layout: 'default',
    page: () => import('./routes/disputes').then((m) => ({ Component: m.DisputeRoute })),
  },
  {
    path: paths.adverseAction.path,
    title: 'common.route.adverseAction',
    access: only('finalization-complete'),
    layout: 'default',
    page: () => import('./routes/adverse-action').then((m) => ({ Component: m.AdverseActionRoute })),
  },
  // new (token guard first)
  {
    path: paths.setup.path,
    title: 'common.route.setUpYourAccount',
    access: { kind: 'setup', statuses: ['new'] },
    layout: 'default',
    page: () => import('./routes/setup').then((m) => ({ Component: m.SetupRoute })),
  },
  // setup-complete
  {
    path: paths.additionalDocuments.path,
    title: 'common.route.additionalDocuments',
    access: setupComplete,
    layout: 'default',
    page: () => import('./routes/additional-documents').then((m) => ({ Component: m.AdditionalDocumentsRoute })),
  },
  {
    path: paths.addresses.path,
    title: 'common.route.addresses',
    access: setupComplete,
    layout: 'default',
    page: () => import('./routes/addresses').then((m) => ({ Component: m.AddressesRoute })),
  },
  {
    path: paths.aliases.path,
    title: 'common.route.otherNames',
    access: setupComplete,
    layout: 'default',
    page: () => import('./routes/aliases').then((m) => ({ Component: m.AliasesRoute })),
  },
  {
    path: paths.confirmation.path,
    title: 'common.route.confirmation',
    access: setupComplete,
    layout: 'default',
    page: () => import('./routes/confirmation').then((m) => ({ Component: m.ConfirmationRoute })),
  },
  {
    path: paths.credential.path,
    title: 'common.route.credentials',
    access: setupComplete,
    layout: 'default',
    page: () => import('./routes/service-data').then((m) => ({ Component: m.CredentialRoute })),
  },
  {
    path: paths.education.path,
    title: 'common.route.education',
    access: setupComplete,
    layout: 'default',
    page: () => import('./routes/service-data').then((m) => ({ Component: m.EducationRoute })),
  },
  {
    path: paths.employment.path,
    title: 'common.route.employment',
    access: setupComplete,
    layout: 'default',
    page: () => import('./routes/service-data').then((m) => ({ Component: m.EmploymentRoute })),
  },
  {
    path: paths.fillablePdfForm.path,
    title: 'common.route.forms',
    access: setupComplete,
    layout: 'default',
    page: () => import('./routes/fillable-pdf-form').then((m) => ({ Component: m.FillablePdfFormRoute })),
  },
  {
    path: paths.personal.path,
    title: 'common.route.personalInformation',
    access: setupComplete,
    layout: 'default',
    page: () => import('./routes/personal').then((m) => ({ Component: m.PersonalRoute })),
  },
  {
    path: paths.personalData.path,
    title: 'common.route.personalData',
    access: setupComplete,
    layout: 'default',
    page: () => import('./routes/personal-data').then((m) => ({ Component: m.PersonalDataRoute })),
  },
  {
    path: paths.professional.path,
    title: 'common.route.professional',
    access: setupComplete,
    layout: 'default',
    page: () => import('./routes/service-data').then((m) => ({ Component: m.ProfessionalRoute })),
  },
  {
    path: paths.profile.path,
    title: 'common.route.profile',
    access: setupComplete,
    layout: 'default',
    page: () => import('./routes/profile').then((m) => ({ Component: m.ProfileRoute })),
  },
  // idv-started
  {
    path: paths.idv.path,
    title: 'common.route.identityVerification',
    access: only('idv-started'),
    layout: 'default',
    page: () => import('./routes/idv').then((m) => ({ Component: m.IdvRoute })),
  },
  {
    path: paths.idvSuccess.path,
    title: 'common.route.identityVerified',
    access: only('idv-started'),
    layout: 'default',
    page: () => import('./routes/idv').then((m) => ({ Component: m.IdvSuccessRoute })),
  },
  // MRO-site-selection-started
  {
    path: paths.collectionSite.path,
    title: 'common.route.collectionSite',
    access: only('MRO-site-selection-started'),
    layout: 'default',
    page: () => import('./routes/collection-site').then((m) => ({ Component: m.CollectionSiteRoute })),
  },
  // self-pay-required
  {
    path: paths.selfPay.path,
    title: 'common.route.payment',
    access: only('self-pay-required'),
    layout: 'default',
    page: () => import('./routes/self-pay').then((m) => ({ Component: m.SelfPayRoute })),
  },
  // setup-complete or finalization-complete
  {
    path: paths.print.path,
    title: 'common.route.print',
    access: only('setup-complete', 'finalization-complete'),
    layout: 'blank',
    page: () => import('./routes/print').then((m) => ({ Component: m.PrintRoute })),
  },
];

// The layout of the guarded pages, with the query client: not for /login, nor for a visitor the guards send away.
const loadDefaultLayout = () => import('./layouts/default-layout');
const DefaultLayout = lazy(() => loadDefaultLayout().then((m) => ({ default: m.DefaultLayout })));

const titleHandle = (title: MessageKey) =>
  ({
    get title() {
      return t(title);
    },
  }) satisfies RouteHandle;

function childrenOf(layout: PageRoute['layout']): RouteObject[] {
  return pageRoutes
    .filter((route) => route.layout === layout)
    .map((route) => {
      if (route.access.kind === 'public') {
        // Loaded with the guard (React Router's lazy): there is nothing to keep from anyone.
        return {
          path: route.path,
          handle: titleHandle(route.title),
          loader: guardLoader(route.access),
          lazy: route.page,
          ErrorBoundary: RouteErrorBoundary,
        };
      }
      // A guarded page loads in its loader, once the guards may let the visitor in (app/guards.ts),
      // not with React Router's lazy, which loads while the guards run, whatever they decide. The
      // page renders when its loader is done: its code is there by then.
      const Page = lazy(() => route.page().then((m) => ({ default: m.Component })));
      const loadPage = layout === 'default' ? () => Promise.all([route.page(), loadDefaultLayout()]) : route.page;
      return {
        path: route.path,
        handle: titleHandle(route.title),
        loader: guardLoader(route.access, loadPage),
        Component: Page,
        ErrorBoundary: RouteErrorBoundary,
      };
    });
}

export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: RootLayout,
    ErrorBoundary: FramedRouteErrorBoundary,
    // While the first page's guards run (e.g. a token login), only the loading bar shows.
    HydrateFallback: () => <ProgressBar navigating />,
    children: [
      {
        Component: PublicLayout,
        ErrorBoundary: FramedRouteErrorBoundary,
        children: [
          ...childrenOf('public'),
          {
            path: '*',
            handle: titleHandle('common.route.pageNotFound'),
            loader: guardLoader(publicAccess),
            Component: NotFoundRoute,
          },
        ],
      },
      {
        // Lazy: it brings the query client, which the login page does without. Its pages' loaders
        // load it, once their guards may let the visitor in.
        Component: DefaultLayout,
        ErrorBoundary: FramedRouteErrorBoundary,
        children: childrenOf('default'),
      },
      { Component: BlankLayout, ErrorBoundary: RouteErrorBoundary, children: childrenOf('blank') },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
