// Documents that became applicable after setup (a document the employer
// added, or a place of work set since): setup completed with every
// applicable document signed, so any unsigned step now is one of these. The
// server lets the applicant sign them until the profile is submitted, with
// the same audit trail; this shows them with the setup's signing steps.
import '@/features/legal/lib/messages';
import { useQueryClient } from '@tanstack/react-query';
import { useCurrentUser } from '@/lib/current-user';
import { statusIds } from '@/lib/subject-status';
import { invalidateSubject } from '@/lib/subject';
import { useLegalDocuments } from '../api/get-legal-documents';
import { useSubjectLocation } from '../api/subject-location';
import { legalSteps, stepSigned } from '../lib/legal-steps';
import { LegalStepper } from './legal-stepper';
import styles from './signed-documents.module.css';
import { t } from '@/lib/i18n';

export function PendingDocuments() {
  const statusId = useCurrentUser()?.subject.status.statusId;
  const documents = useLegalDocuments();
  const location = useSubjectLocation();
  const client = useQueryClient();
  // Errors and loading are the signed-documents list's to show; this appears only when there is something to sign.
  if (statusId !== statusIds['setup-complete'] || !documents.data || !location.data) return null;
  if (legalSteps(documents.data, location.data).every(stepSigned)) return null;
  return (
    <section className={styles.section} aria-labelledby="pending-documents-title">
      <h2 id="pending-documents-title" className={styles.heading}>
        {t('legal.pending.heading')}
      </h2>
      <p>{t('legal.pending.intro')}</p>
      <LegalStepper onComplete={() => void invalidateSubject(client)} />
    </section>
  );
}
