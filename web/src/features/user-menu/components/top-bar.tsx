// The top bar of logged-in pages: the company logo (or the bundled default
// when it is missing or fails to load) and the user menu.
import { useState } from 'react';
import { Link } from 'react-router';
import defaultLogoUrl from '@/assets/default-logo.svg';
import { useCompanySettings, useCurrentUser } from '@/lib/current-user';
import { UserMenu } from './user-menu';
import styles from './top-bar.module.css';
import { t } from '@/lib/i18n';

export function TopBar() {
  const companyName = useCurrentUser()?.company.name ?? '';
  const logoUrl = useCompanySettings()?.companyLogoUrlAddress ?? null;
  const [brokenLogo, setBrokenLogo] = useState<string | null>(null);
  const useCompanyLogo = Boolean(logoUrl) && brokenLogo !== logoUrl;

  return (
    <header className={styles.bar}>
      <Link to="/" className={styles.homeLink} aria-label={t('common.topBar.home')}>
        <img
          className={styles.logo}
          src={useCompanyLogo ? (logoUrl as string) : defaultLogoUrl}
          alt={
            useCompanyLogo && companyName
              ? t('common.topBar.companyLogo', { company: companyName })
              : t('common.topBar.defaultLogo')
          }
          data-testid={useCompanyLogo ? 'company-logo' : 'default-logo'}
          onError={() => setBrokenLogo(logoUrl)}
        />
      </Link>
      <UserMenu />
    </header>
  );
}
