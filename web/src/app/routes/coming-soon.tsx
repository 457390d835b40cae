import { useMatches } from 'react-router';
import { ComingSoon } from '@/components/coming-soon/coming-soon';
import type { RouteHandle } from '../layouts/root-layout';
import { t } from '@/lib/i18n';

/** The page of a route whose screen a later issue builds; its title comes from the route's handle. */
export function ComingSoonRoute() {
  const matches = useMatches();
  const handle = matches[matches.length - 1]?.handle as RouteHandle | undefined;
  return <ComingSoon title={handle?.title ?? t('common.appName')} />;
}
