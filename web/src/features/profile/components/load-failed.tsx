// What the hub and /confirmation show when what they read could not be loaded: spec section 8's
// 'Error getting profile data', why, and a way to ask again for only what failed.
import '@/features/profile/lib/messages';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { t } from '@/lib/i18n';

type Query = { isError: boolean; refetch: () => unknown };

export function LoadFailed({ text, queries }: { text: string; queries: Query[] }) {
  return (
    <Alert title={t('errors.profile.get')} focusOnMount>
      <p>{text}</p>
      <Button variant="secondary" onClick={() => queries.forEach((q) => q.isError && void q.refetch())}>
        {t('common.tryAgain')}
      </Button>
    </Alert>
  );
}
