// What differs between the four service pages: their words, and whether the
// applicant may say they have nothing to report (docs/api.md: noDataAvailable
// exists for credential, education and employment).
import '@/features/services/lib/messages';
import { t } from '@/lib/i18n';
import type { DataAlias } from '@/lib/subject';

export type ServicePageWords = {
  title: string;
  description: string;
  entry: (n: number) => string;
  add: string;
  remove: (n: number) => string;
  /** The "nothing to report" choice; absent where the page has none. */
  noData?: string;
  /** The name of a coverage bar's gap button ("Add an employer for Mar 2021 to Aug 2021"), where the page has a bar. */
  addForRange?: (range: string) => string;
};

export const MAX_ENTRIES = 20;

export function wordsOf(alias: DataAlias): ServicePageWords {
  switch (alias) {
    case 'education':
      return {
        title: t('services.education.title'),
        description: t('services.education.description'),
        entry: (n) => t('services.education.entry', { n }),
        add: t('services.education.add'),
        remove: (n) => t('services.education.remove', { n }),
        noData: t('services.education.noData'),
      };
    case 'employment':
      return {
        title: t('services.employment.title'),
        description: t('services.employment.description'),
        entry: (n) => t('services.employment.entry', { n }),
        add: t('services.employment.add'),
        remove: (n) => t('services.employment.remove', { n }),
        noData: t('services.employment.noData'),
        addForRange: (range) => t('services.employment.addForRange', { range }),
      };
    case 'credential':
      return {
        title: t('services.credential.title'),
        description: t('services.credential.description'),
        entry: (n) => t('services.credential.entry', { n }),
        add: t('services.credential.add'),
        remove: (n) => t('services.credential.remove', { n }),
        noData: t('services.credential.noData'),
      };
    case 'professional':
      return {
        title: t('services.professional.title'),
        description: t('services.professional.description'),
        entry: (n) => t('services.professional.entry', { n }),
        add: t('services.professional.add'),
        remove: (n) => t('services.professional.remove', { n }),
      };
  }
}

/** Today in the applicant's calendar, "YYYY-MM-DD". */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
