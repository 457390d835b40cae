import { AdverseActionPage } from '@/features/adverse-action/components/adverse-action-page';

/** /adverse-action: the pre-adverse and final adverse-action notices (features/adverse-action). */
export function AdverseActionRoute() {
  return <AdverseActionPage />;
}
