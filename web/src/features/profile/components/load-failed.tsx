// What the hub and /confirmation show when what they read could not be loaded: spec section 8's
// 'Error getting profile data', why, and a way to ask again for only what failed.
import '@/features/profile/lib/messages';
import { LoadFailed as LoadFailedAlert } from '@/components/load-failed/load-failed';
import { t } from '@/lib/i18n';

type Query = { isError: boolean; refetch: () => unknown };

export function LoadFailed({ text, queries }: { text: string; queries: Query[] }) {
  return (
    <LoadFailedAlert
      title={t('errors.profile.get')}
      text={text}
      retry={() => queries.forEach((q) => q.isError && void q.refetch())}
    />
  );
}
