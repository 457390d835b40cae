// The forms on the /profile hub: each applicable form, whether it was sent,
// and the way to /fillable-pdf-form. Nothing when no form applies (or the list
// cannot be read: the page itself says why).
import '@/features/pdf-forms/lib/messages';
import { Link } from 'react-router';
import { Card } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { t } from '@/lib/i18n';
import { usePdfForms } from '../api/pdf-forms';
import { FormStatus } from './form-status';
import styles from './pdf-forms.module.css';

export function FormsSummary() {
  const forms = usePdfForms();
  if (!forms.data || forms.data.length === 0) return null;
  return (
    <Card aria-labelledby="hub-forms-title" className={styles.card}>
      <h2 id="hub-forms-title" className={styles.summaryHeading}>
        {t('forms.summary.title')}
      </h2>
      <p className={styles.muted}>{t('forms.summary.intro')}</p>
      <ul className={styles.summaryList}>
        {forms.data.map((form) => (
          <li key={form.id} className={styles.summaryItem}>
            <span>{form.title}</span>
            <FormStatus form={form} />
          </li>
        ))}
      </ul>
      <p>
        <Link to={paths.fillablePdfForm.getHref()} className={styles.link}>
          {t('forms.summary.open')}
        </Link>
      </p>
    </Card>
  );
}
