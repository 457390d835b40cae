import { ConfirmationReview } from '@/features/profile/components/confirmation-review';

/** /confirmation: review everything, then start identity verification. */
export function ConfirmationRoute() {
  return <ConfirmationReview />;
}
