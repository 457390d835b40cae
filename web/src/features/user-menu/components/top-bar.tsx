// The top bar of logged-in pages: the screening provider's brand and the
// employer's (its logo, or its name), Messages (the chat with the employer's
// hiring team, when chat is on, with the unread count: on the page, not only
// in the menu), the language switch and the user menu.
import '@/components/app-nav/messages';
import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { Link } from 'react-router';
import { LanguageSwitch } from '@/components/language-switch/language-switch';
import { HeaderBrands } from '@/components/logo/header-brands';
import { api } from '@/lib/api-client';
import { raiseChatSelected } from '@/lib/app-events';
import { config } from '@/lib/config';
import { currentUserQuery, useCompanySettings } from '@/lib/current-user';
import { badgeOf, UserMenu } from './user-menu';
import menuStyles from './user-menu.module.css';
import styles from './top-bar.module.css';
import { t } from '@/lib/i18n';

function messagesLabel(company: string, unread: number) {
  const name = company || config.brand.name;
  return unread > 0
    ? t('nav.topBar.messagesLabelUnread', { company: name, count: unread })
    : t('nav.topBar.messagesLabel', { company: name });
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
      <span className={styles.messagesText}>{t('nav.topBar.messages')}</span>
      {unread > 0 ? (
        <span className={menuStyles.badge} aria-hidden="true" data-testid="messages-badge">
          {badgeOf(unread)}
        </span>
      ) : null}
    </button>
  );
}

/**
 * `unread`: the chat's unread count for the Messages button and the user menu's badge;
 * `onContinueOnPhone`: the user menu's "Continue on your phone", when the app layer offers it.
 */
export function TopBar({
  unread = 0,
  onContinueOnPhone,
}: {
  unread?: number;
  onContinueOnPhone?: (trigger: HTMLButtonElement | null) => void;
}) {
  // Fetched where no guard has (the public pages, the 404): the employer's brand is on every page.
  const companyName = useQuery(currentUserQuery()).data?.company.name ?? '';
  const settings = useCompanySettings();
  const chatEnabled = config.features.subjectChat && settings?.preferences.company_subject_chat === true;
  const logoUrl = settings?.companyLogoUrlAddress ?? null;

  return (
    <header className={styles.bar}>
      {/* Named by what it shows (the brands), then where it goes: the visible words start the name (WCAG 2.5.3). */}
      <Link to="/" className={styles.homeLink}>
        <HeaderBrands employer={companyName ? { name: companyName, logoUrl } : null} />
        {/* The space outside the hidden span: a name is computed from trimmed parts. */}{' '}
        <span className="visually-hidden">{t('common.topBar.home')}</span>
      </Link>
      <div className={styles.actions}>
        <LanguageSwitch onSwitch={(locale) => api.put('api/v2/user/locale', { locale })} />
        {chatEnabled ? <MessagesButton company={companyName} unread={unread} /> : null}
        <UserMenu unread={unread} onContinueOnPhone={onContinueOnPhone} />
      </div>
    </header>
  );
}
