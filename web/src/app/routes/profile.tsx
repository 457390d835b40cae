import { SignedDocuments } from '@/features/legal/components/signed-documents';
import { ProfileHub } from '@/features/profile/components/profile-hub';

/** /profile, the hub after setup, with the documents the applicant signed (features/legal). */
export function ProfileRoute() {
  return <ProfileHub signedDocuments={<SignedDocuments />} />;
}
