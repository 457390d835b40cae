// Who the page is from, at the left of every page's top bar, logged in or
// out: the screening provider's brand and, once known, the employer that
// asked for the screening (its logo, or its name when it has none or the
// logo fails to load).
import { useState } from 'react';
import { t } from '@/lib/i18n';
import { BrandLogo } from './brand-logo';
import styles from './header-brands.module.css';

export type HeaderEmployer = { name: string; logoUrl: string | null };

export function HeaderBrands({ employer }: { employer?: HeaderEmployer | null }) {
  const [brokenLogo, setBrokenLogo] = useState<string | null>(null);
  const logoUrl = employer?.logoUrl && employer.logoUrl !== brokenLogo ? employer.logoUrl : null;
  return (
    <span className={styles.brands}>
      <BrandLogo />
      {/* A space between the names: the home link is named by them (top-bar.tsx). */}
      {employer ? ' ' : null}
      {employer ? (
        <span className={styles.employer} data-testid="header-employer">
          {logoUrl ? (
            <img
              className={styles.employerLogo}
              src={logoUrl}
              alt={t('common.topBar.companyLogo', { company: employer.name })}
              data-testid="company-logo"
              onError={() => setBrokenLogo(logoUrl)}
            />
          ) : (
            <span className={styles.employerName}>{employer.name}</span>
          )}
        </span>
      ) : null}
    </span>
  );
}
