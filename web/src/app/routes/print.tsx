import { Navigate, useParams } from 'react-router';
import { ComingSoon } from '@/components/coming-soon/coming-soon';
import { kebabCase, paths } from '@/config/paths';
import { PrintDocument } from '@/features/legal/components/print-document';
import { QueryProvider } from '../query-provider';
import { t } from '@/lib/i18n';

/** /print/{type}: a printable legal document; camelCase types move to their kebab-case URL. */
export function PrintRoute() {
  const { type } = useParams();
  if (type && kebabCase(type) !== type) return <Navigate to={paths.print.getHref(type)} replace />;
  if (!type) return <ComingSoon title={t('common.route.print')} />;
  // The blank layout brings no query client of its own.
  return (
    <QueryProvider>
      <PrintDocument type={type} />
    </QueryProvider>
  );
}
