// Reserved for issue 25; its page replaces this.
import { t } from '@/lib/i18n';

export function ContinueRoute() {
  return <h1>{t('common.route.continue')}</h1>;
}
