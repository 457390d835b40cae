// The top bar of logged-in pages: the company logo (or, when it is missing or
// fails to load, the screening provider's wordmark) and the user menu.
import { useState } from 'react';
import { Link } from 'react-router';
import { BrandLogo } from '@/components/logo/brand-logo';
import { useCompanySettings, useCurrentUser } from '@/lib/current-user';
import { UserMenu } from './user-menu';
import styles from './top-bar.module.css';
import { t } from '@/lib/i18n';

/** `unread`: the chat's unread count for the user menu's badge. */
export function TopBar({ unread = 0 }: { unread?: number }) {
  const companyName = useCurrentUser()?.company.name ?? '';
  const logoUrl = useCompanySettings()?.companyLogoUrlAddress ?? null;
  const [brokenLogo, setBrokenLogo] = useState<string | null>(null);
  const useCompanyLogo = Boolean(logoUrl) && brokenLogo !== logoUrl;

  return (
    <header className={styles.bar}>
      <Link to="/" className={styles.homeLink} aria-label={t('common.topBar.home')}>
        {useCompanyLogo ? (
          <img
            className={styles.logo}
            src={logoUrl as string}
            alt={companyName ? t('common.topBar.companyLogo', { company: companyName }) : ''}
            data-testid="company-logo"
            onError={() => setBrokenLogo(logoUrl)}
          />
        ) : (
          <BrandLogo />
        )}
      </Link>
      <UserMenu unread={unread} />
    </header>
  );
}
