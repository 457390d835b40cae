// Reserved for issue 25; its page replaces this.
import { t } from '@/lib/i18n';

export function StopRemindersRoute() {
  return <h1>{t('common.route.stopReminders')}</h1>;
}
