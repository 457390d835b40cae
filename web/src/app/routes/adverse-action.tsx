// /adverse-action (issue 24): reserved here; its feature replaces this module.
import { PageHeader } from '@/components/ui/page-header';
import { t } from '@/lib/i18n';

export function AdverseActionRoute() {
  return <PageHeader title={t('common.route.adverseAction')} />;
}

