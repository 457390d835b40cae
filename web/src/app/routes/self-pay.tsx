import { SelfPayPage } from '@/features/self-pay/components/self-pay-page';

/** /self-pay: the hold on a card (features/self-pay). */
export function SelfPayRoute() {
  return <SelfPayPage />;
}
