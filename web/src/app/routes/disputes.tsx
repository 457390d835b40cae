// /disputes, /disputes/new?service=CODE and /disputes/:id (features/disputes).
import { useParams, useSearchParams } from 'react-router';
import { DisputeForm } from '@/features/disputes/components/dispute-form';
import { DisputePage } from '@/features/disputes/components/dispute-page';
import { DisputesPage } from '@/features/disputes/components/disputes-list';
import { useCurrentUser } from '@/lib/current-user';

export function DisputesRoute() {
  return <DisputesPage />;
}

/** The form offers the package's services (GET /api/v2/user), one preselected from `?service`. */
export function DisputeNewRoute() {
  const [params] = useSearchParams();
  const services = useCurrentUser()?.packageServices ?? [];
  return <DisputeForm services={services} service={params.get('service')} />;
}

export function DisputeRoute() {
  const { id } = useParams();
  return <DisputePage id={Number(id)} />;
}
