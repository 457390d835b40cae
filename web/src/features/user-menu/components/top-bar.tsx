// The top bar of logged-in pages: the company logo (or, when it is missing or
// fails to load, the screening provider's wordmark), Messages (the chat with
// the employer's hiring team, when chat is on, with the unread count: on the
// page, not only in the menu) and the user menu.
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { BrandLogo } from '@/components/logo/brand-logo';
import { raiseChatSelected } from '@/lib/app-events';
import { config } from '@/lib/config';
import { useCompanySettings, useCurrentUser } from '@/lib/current-user';
import { badgeOf, UserMenu } from './user-menu';
import menuStyles from './user-menu.module.css';
import styles from './top-bar.module.css';
import { t } from '@/lib/i18n';

function messagesLabel(company: string, unread: number) {
  const name = company || config.brand.name;
  return unread > 0
    ? t('common.topBar.messagesLabelUnread', { company: name, count: unread })
    : t('common.topBar.messagesLabel', { company: name });
}

/** Opens the chat panel as the menu's entry does; focus comes back here when it closes. */
function MessagesButton({ company, unread }: { company: string; unread: number }) {
  const button = useRef<HTMLButtonElement>(null);
  return (
    <button
      ref={button}
      type="button"
      className={styles.messages}
      aria-label={messagesLabel(company, unread)}
      onClick={() => raiseChatSelected(button.current)}
    >
      <svg className={styles.messagesIcon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path
          fill="currentColor"
          d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2zm2 4v2h12V8H6zm0 4v2h8v-2H6z"
        />
      </svg>
      <span className={styles.messagesText}>{t('common.topBar.messages')}</span>
      {unread > 0 ? (
        <span className={menuStyles.badge} aria-hidden="true" data-testid="messages-badge">
          {badgeOf(unread)}
        </span>
      ) : null}
    </button>
  );
}

/** `unread`: the chat's unread count for the Messages button and the user menu's badge. */
export function TopBar({ unread = 0 }: { unread?: number }) {
  const settings = useCompanySettings();
  const chatEnabled = config.features.subjectChat && settings?.preferences.company_subject_chat === true;
  const companyName = useCurrentUser()?.company.name ?? '';
  const logoUrl = settings?.companyLogoUrlAddress ?? null;
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
      <div className={styles.actions}>
        {chatEnabled ? <MessagesButton company={companyName} unread={unread} /> : null}
        <UserMenu unread={unread} />
      </div>
    </header>
  );
}
