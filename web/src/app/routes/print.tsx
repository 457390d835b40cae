import { Navigate, useParams } from 'react-router';
import { kebabCase, paths } from '@/config/paths';
import { PrintDocument } from '@/features/legal/components/print-document';
import { QueryProvider } from '../query-provider';

/** /print/{type}: a printable legal document; camelCase types move to their kebab-case URL. */
export function PrintRoute() {
  // The route's pattern has the type: a bare /print is the not-found page.
  const type = useParams().type as string;
  if (kebabCase(type) !== type) return <Navigate to={paths.print.getHref(type)} replace />;
  // The blank layout brings no query client of its own.
  return (
    <QueryProvider>
      <PrintDocument type={type} />
    </QueryProvider>
  );
}
