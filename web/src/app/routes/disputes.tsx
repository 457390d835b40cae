// /disputes, /disputes/new and /disputes/:id (issue 24): reserved here; its feature replaces this module.
import { PageHeader } from '@/components/ui/page-header';
import { t } from '@/lib/i18n';

export function DisputesRoute() {
  return <PageHeader title={t('common.route.disputes')} />;
}

export function DisputeNewRoute() {
  return <PageHeader title={t('common.route.disputeNew')} />;
}

export function DisputeRoute() {
  return <PageHeader title={t('common.route.dispute')} />;
}

