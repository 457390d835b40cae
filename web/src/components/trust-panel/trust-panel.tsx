// Why am I here, who sees my data, is it safe: the three questions a person
// has before typing anything into a background-check portal, answered in a
// few words where they first arrive (the login page, the welcome step).
import { config, type Brand } from '@/lib/config';
import { t } from '@/lib/i18n';
import styles from './trust-panel.module.css';

export type Employer = { name: string; logoUrl?: string | null };

type TrustPanelProps = {
  brand?: Brand;
  /** The employer, once the invitation or the login tells who it is. */
  employer?: Employer | null;
  headingLevel?: 2 | 3;
};

export function TrustPanel({ brand = config.brand, employer, headingLevel = 2 }: TrustPanelProps) {
  const Heading = `h${headingLevel}` as const;
  const employerName = employer?.name || t('ui.trust.yourEmployer');
  const items = [
    {
      icon: 'why',
      title: t('ui.trust.why.title'),
      body: t('ui.trust.why.body', { employer: employerName, brand: brand.name }),
    },
    {
      icon: 'who',
      title: t('ui.trust.who.title'),
      body: t('ui.trust.who.body', { employer: employerName, brand: brand.name }),
    },
    { icon: 'lock', title: t('ui.trust.safe.title'), body: t('ui.trust.safe.body') },
  ] as const;
  return (
    <aside className={styles.panel} aria-labelledby="trust-panel-title">
      <Heading id="trust-panel-title" className={styles.title}>
        {t('ui.trust.title')}
      </Heading>
      <ul className={styles.list}>
        {items.map((item) => (
          <li key={item.icon} className={styles.item}>
            <TrustIcon kind={item.icon} />
            <div>
              <p className={styles.itemTitle}>{item.title}</p>
              <p className={styles.itemBody}>{item.body}</p>
            </div>
          </li>
        ))}
      </ul>
    </aside>
  );
}

function TrustIcon({ kind }: { kind: 'why' | 'who' | 'lock' }) {
  return (
    <svg className={styles.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      {kind === 'why' ? (
        <path d="M9 5h6M9 3h6v4H9zM6 5h-.5A1.5 1.5 0 0 0 4 6.5v13A1.5 1.5 0 0 0 5.5 21h13a1.5 1.5 0 0 0 1.5-1.5v-13A1.5 1.5 0 0 0 18.5 5H18M8 13l3 3 5-6" />
      ) : kind === 'who' ? (
        <path d="M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7Zm-6 9c0-3.3 2.7-6 6-6s6 2.7 6 6M16 4.3a3.5 3.5 0 0 1 0 6.4M18 14.5c1.8.9 3 2.9 3 5.5" />
      ) : (
        <path d="M6 10V7a6 6 0 0 1 12 0v3M5 10h14v11H5zM12 14v3" />
      )}
    </svg>
  );
}
