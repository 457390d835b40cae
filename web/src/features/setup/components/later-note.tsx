// "You said you'd find these later": on /profile, the items the applicant
// marked on the Welcome step, so the surprise they put off does not come
// back as one. Each can be cleared once found. Nothing shows without marks.
import '@/features/setup/lib/messages';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { t } from '@/lib/i18n';
import { useMarkPreparationItem, usePreparation } from '../api/preparation';
import { itemTitle } from './preparation-checklist';
import styles from './preparation-checklist.module.css';

export function LaterNote() {
  const preparation = usePreparation();
  const mark = useMarkPreparationItem();
  const later = preparation.data?.items.filter((it) => it.later) ?? [];
  if (later.length === 0) return null;
  return (
    <Alert tone="info" title={t('welcome.laterNote.title')}>
      <p className={styles.muted}>{t('welcome.laterNote.hint')}</p>
      <ul className={styles.laterList}>
        {later.map((item) => {
          const title = itemTitle(item);
          return (
            <li key={item.id}>
              <span>{title}</span>{' '}
              <Button
                variant="link"
                aria-label={t('welcome.laterNote.foundFor', { item: title })}
                onClick={() => mark.mutate({ id: item.id, later: false })}
              >
                {t('welcome.laterNote.found')}
              </Button>
            </li>
          );
        })}
      </ul>
    </Alert>
  );
}
