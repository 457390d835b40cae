// Whether a form is required and whether it was sent: on the list's cards and on the hub.
import '@/features/pdf-forms/lib/messages';
import { t } from '@/lib/i18n';
import type { PdfForm } from '../api/pdf-forms';
import { formatDate } from './format-date';
import styles from './pdf-forms.module.css';

export function FormStatus({ form }: { form: PdfForm }) {
  return (
    <p className={styles.status}>
      <span className={styles.badge} data-required={form.required}>
        {form.required ? t('forms.card.required') : t('forms.card.optional')}
      </span>{' '}
      <span data-submitted={Boolean(form.submitted)} className={styles.state}>
        {form.submitted
          ? t('forms.card.submittedOn', { date: formatDate(form.submitted.submittedAt) })
          : t('forms.card.notSubmitted')}
      </span>
    </p>
  );
}
