// Who is asking, at the top of the welcome step: the screening provider's
// logo, and the employer (its logo when the company has one) once the
// invitation or the login named it. An employer logo that fails to load
// leaves its name, which is always written out.
import '@/features/setup/lib/messages';
import { useState } from 'react';
import { BrandLogo } from '@/components/logo/brand-logo';
import type { Employer } from '@/components/trust-panel/trust-panel';
import { t } from '@/lib/i18n';
import styles from './setup-wizard.module.css';

export function WelcomeBrands({ employer }: { employer: Employer | null }) {
  const [brokenLogo, setBrokenLogo] = useState<string | null>(null);
  const logoUrl = employer?.logoUrl && employer.logoUrl !== brokenLogo ? employer.logoUrl : null;
  return (
    <div className={styles.brands}>
      <BrandLogo />
      {employer ? (
        <p className={styles.employer}>
          {logoUrl ? (
            <img
              className={styles.employerLogo}
              src={logoUrl}
              // The name follows in text: the logo adds nothing for a screen reader.
              alt=""
              onError={() => setBrokenLogo(logoUrl)}
            />
          ) : null}
          <span>{t('setup.welcome.requestedBy', { employer: employer.name })}</span>
        </p>
      ) : null}
    </div>
  );
}
