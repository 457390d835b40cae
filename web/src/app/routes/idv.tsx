import { IdvPage } from '@/features/idv/components/idv-page';
import { IdvSuccessPage } from '@/features/idv/components/idv-success-page';

/** /idv: the provider's verification page in a frame (features/idv). */
export function IdvRoute() {
  return <IdvPage />;
}

/** /idv/success: back from the provider; where the applicant goes next (features/idv). */
export function IdvSuccessRoute() {
  return <IdvSuccessPage />;
}
