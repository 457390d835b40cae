import { ComingSoon } from '@/components/coming-soon/coming-soon';
import { SignedDocuments } from '@/features/legal/components/signed-documents';
import { t } from '@/lib/i18n';

/** /profile, the page after setup: the profile hub comes later; what was signed is here already. */
export function ProfileRoute() {
  return (
    <ComingSoon title={t('common.route.profile')}>
      <SignedDocuments />
    </ComingSoon>
  );
}
