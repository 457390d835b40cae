// The top bar of logged-in pages: the company logo (or the bundled default
// when it is missing or fails to load) and the user menu.
import { useState } from 'react';
import { Link } from 'react-router';
import defaultLogoUrl from '@/assets/default-logo.svg';
import { useCompanySettings, useCurrentUser } from '@/lib/current-user';
import { UserMenu } from './user-menu';
import styles from './top-bar.module.css';

export function TopBar() {
  const companyName = useCurrentUser()?.company.name ?? '';
  const logoUrl = useCompanySettings()?.companyLogoUrlAddress ?? null;
  const [brokenLogo, setBrokenLogo] = useState<string | null>(null);
  const useCompanyLogo = Boolean(logoUrl) && brokenLogo !== logoUrl;

  return (
    <header className={styles.bar}>
      <Link to="/" className={styles.homeLink} aria-label="Applicant Portal home">
        <img
          className={styles.logo}
          src={useCompanyLogo ? (logoUrl as string) : defaultLogoUrl}
          alt={useCompanyLogo && companyName ? `${companyName} logo` : 'Applicant Portal logo'}
          data-testid={useCompanyLogo ? 'company-logo' : 'default-logo'}
          onError={() => setBrokenLogo(logoUrl)}
        />
      </Link>
      <UserMenu />
    </header>
  );
}
