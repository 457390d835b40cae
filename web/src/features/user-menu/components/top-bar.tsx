// The top bar of logged-in pages: the screening provider's brand and the
// employer's (its logo, or its name), and the user menu.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { HeaderBrands } from '@/components/logo/header-brands';
import { currentUserQuery, useCompanySettings } from '@/lib/current-user';
import { UserMenu } from './user-menu';
import styles from './top-bar.module.css';
import { t } from '@/lib/i18n';

/** `unread`: the chat's unread count for the user menu's badge. */
export function TopBar({ unread = 0 }: { unread?: number }) {
  // Fetched where no guard has (the public pages, the 404): the employer's brand is on every page.
  const companyName = useQuery(currentUserQuery()).data?.company.name ?? '';
  const logoUrl = useCompanySettings()?.companyLogoUrlAddress ?? null;

  return (
    <header className={styles.bar}>
      <Link to="/" className={styles.homeLink} aria-label={t('common.topBar.home')}>
        <HeaderBrands employer={companyName ? { name: companyName, logoUrl } : null} />
      </Link>
      <UserMenu unread={unread} />
    </header>
  );
}
