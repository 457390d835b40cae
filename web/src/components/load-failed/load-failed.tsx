// What a page shows for something it could not load: which data (the title), why, and a way to ask
// again. It takes the focus, so a keyboard or screen-reader user hears it at once.
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { t } from '@/lib/i18n';

export function LoadFailed({ title, text, retry }: { title: string; text: string; retry: () => unknown }) {
  return (
    <Alert title={title} focusOnMount>
      <p>{text}</p>
      <Button variant="secondary" onClick={() => void retry()}>
        {t('common.tryAgain')}
      </Button>
    </Alert>
  );
}
