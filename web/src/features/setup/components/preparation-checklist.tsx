// The Welcome step's honest start: how long the whole journey takes and what
// the applicant will need, as the server computed both from the company's
// package, each item with why it is asked for and an "I'll find this later"
// mark that never blocks anything.
import '@/features/setup/lib/messages';
import { Checkbox } from '@/components/ui/checkbox';
import { Skeleton } from '@/components/ui/skeleton';
import { t, type MessageKey } from '@/lib/i18n';
import { currentLocale } from '@/lib/locale';
import {
  useMarkPreparationItem,
  usePreparation,
  type PreparationItem,
  type PreparationItemId,
} from '../api/preparation';
import styles from './preparation-checklist.module.css';

/** The catalogue keys of each item; whole literals, so the catalogue check finds them. */
const itemTexts: Record<PreparationItemId, { title: MessageKey; why: MessageKey }> = {
  ssnAndBirthDate: { title: 'welcome.item.ssnAndBirthDate.title', why: 'welcome.item.ssnAndBirthDate.why' },
  otherNames: { title: 'welcome.item.otherNames.title', why: 'welcome.item.otherNames.why' },
  addresses: { title: 'welcome.item.addresses.title', why: 'welcome.item.addresses.why' },
  driversLicence: { title: 'welcome.item.driversLicence.title', why: 'welcome.item.driversLicence.why' },
  schools: { title: 'welcome.item.schools.title', why: 'welcome.item.schools.why' },
  employers: { title: 'welcome.item.employers.title', why: 'welcome.item.employers.why' },
  licences: { title: 'welcome.item.licences.title', why: 'welcome.item.licences.why' },
  references: { title: 'welcome.item.references.title', why: 'welcome.item.references.why' },
  documents: { title: 'welcome.item.documents.title', why: 'welcome.item.documents.why' },
  pdfForms: { title: 'welcome.item.pdfForms.title', why: 'welcome.item.pdfForms.why' },
  photoIdAndSelfie: { title: 'welcome.item.photoIdAndSelfie.title', why: 'welcome.item.photoIdAndSelfie.why' },
  collectionSite: { title: 'welcome.item.collectionSite.title', why: 'welcome.item.collectionSite.why' },
  paymentCard: { title: 'welcome.item.paymentCard.title', why: 'welcome.item.paymentCard.why' },
};

function money(amount: string, currency = 'USD') {
  const value = Number(amount);
  if (!Number.isFinite(value)) return `${amount} ${currency}`;
  return new Intl.NumberFormat(currentLocale(), { style: 'currency', currency }).format(value);
}

/** An item's title with the package's facts in it. */
export function itemTitle(item: PreparationItem): string {
  if (item.id === 'employers' && item.phones) return t('welcome.item.employers.titlePhones');
  if (item.id === 'references' && item.phones) return t('welcome.item.references.titlePhones');
  return t(itemTexts[item.id].title, {
    years: item.years ?? 0,
    names: (item.names ?? []).join(', '),
    amount: money(item.amount ?? '0', item.currency),
  });
}

function itemWhy(item: PreparationItem): string {
  if (item.id === 'ssnAndBirthDate' && item.ssnRequired) return t('welcome.item.ssnAndBirthDate.whyRequired');
  return t(itemTexts[item.id].why);
}

/** The estimate sentence and the checklist; `headingLevel` fits the page the step sits in. */
export function PreparationChecklist({ headingLevel = 3 }: { headingLevel?: 2 | 3 }) {
  const preparation = usePreparation();
  const mark = useMarkPreparationItem();
  const Heading = `h${headingLevel}` as const;
  if (preparation.isPending) return <Skeleton lines={4} label={t('welcome.estimateLoading')} />;
  if (preparation.isError) return <p className={styles.muted}>{t('welcome.unavailable')}</p>;
  const { items, estimate } = preparation.data;
  // Items the server does not know how to name yet (a newer server) are left out rather than shown as keys.
  const known = items.filter((it) => it.id in itemTexts);
  return (
    <div className={styles.preparation}>
      <p className={styles.estimate}>
        {t('welcome.estimate', { low: estimate.minutes.low, high: estimate.minutes.high })}
      </p>
      <section aria-labelledby="welcome-need-title" className={styles.need}>
        <Heading id="welcome-need-title" className={styles.title}>
          {t('welcome.needTitle')}
        </Heading>
        <p className={styles.muted}>{t('welcome.needIntro')}</p>
        <ul className={styles.list}>
          {known.map((item) => {
            const title = itemTitle(item);
            return (
              <li key={item.id} className={item.later ? `${styles.item} ${styles.later}` : styles.item}>
                <p className={styles.itemTitle}>{title}</p>
                <p className={styles.why}>{itemWhy(item)}</p>
                <Checkbox
                  className={styles.toggle}
                  checked={item.later}
                  aria-label={t('welcome.laterFor', { item: title })}
                  label={t('welcome.later')}
                  onChange={(e) => mark.mutate({ id: item.id, later: e.currentTarget.checked })}
                />
              </li>
            );
          })}
        </ul>
        {mark.isError ? (
          <p role="alert" className={styles.error}>
            {t('welcome.laterSaveFailed')}
          </p>
        ) : null}
      </section>
    </div>
  );
}
