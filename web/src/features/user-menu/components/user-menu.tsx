// The user menu behind the round user icon (spec section 2): the person's
// name and company, Account, the chat with the employer's hiring team (when
// enabled; named for who answers) and Logout.
// Radix closes it on an outside click or Escape and returns focus to the trigger.
// Not modal: a modal menu hides the rest of the page with aria-hidden while it
// still holds focusable elements, which axe reports as a serious violation.
// No portal either: the open menu stays inside the header's banner landmark
// (axe's "region" rule); it is positioned fixed, above the page, all the same.
import '@/components/app-nav/messages';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useRef } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { raiseChatSelected } from '@/lib/app-events';
import { fullNameOf, logout } from '@/lib/auth';
import { config } from '@/lib/config';
import { useCompanySettings, useCurrentUser } from '@/lib/current-user';
import styles from './user-menu.module.css';
import { t } from '@/lib/i18n';

/** The badge's text: the count, 99+ beyond. */
export function badgeOf(count: number) {
  return count > 99 ? '99+' : String(count);
}

function triggerLabel(unread: number) {
  if (unread === 1) return t('common.userMenu.labelUnreadOne');
  if (unread > 1) return t('common.userMenu.labelUnread', { count: unread });
  return t('common.userMenu.label');
}

type UserMenuProps = {
  /** The employer's chat messages not read yet (the app layer reads them from the chat). */
  unread?: number;
  /** Opens "Continue on your phone" (the app layer composes it); the trigger takes focus back after. */
  onContinueOnPhone?: (trigger: HTMLButtonElement | null) => void;
};

export function UserMenu({ unread = 0, onContinueOnPhone }: UserMenuProps) {
  const navigate = useNavigate();
  const trigger = useRef<HTMLButtonElement>(null);
  const current = useCurrentUser();
  const user = current?.subject ?? null;
  const companyName = current?.company.name ?? '';
  const companyChat = useCompanySettings()?.preferences.company_subject_chat === true;
  const chatEnabled = config.features.subjectChat && companyChat;
  const shownUnread = chatEnabled ? unread : 0;
  const fullName = fullNameOf(user);

  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger ref={trigger} className={styles.trigger} aria-label={triggerLabel(shownUnread)}>
        <svg className={styles.triggerIcon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path
            fill="currentColor"
            d="M12 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10zm0 2c-4.4 0-9 2.2-9 5v3h18v-3c0-2.8-4.6-5-9-5z"
          />
        </svg>
        {shownUnread > 0 ? (
          <span className={styles.badge} aria-hidden="true" data-testid="unread-badge">
            {badgeOf(shownUnread)}
          </span>
        ) : null}
      </DropdownMenu.Trigger>
      <DropdownMenu.Content className={styles.content} align="end" sideOffset={6} collisionPadding={8}>
        <DropdownMenu.Group>
          <DropdownMenu.Label className={styles.identity}>
            <span className={styles.name}>{fullName}</span>
            <span className={styles.company}>{companyName}</span>
          </DropdownMenu.Label>
        </DropdownMenu.Group>
        <DropdownMenu.Separator className={styles.separator} />
        <DropdownMenu.Item className={styles.item} onSelect={() => navigate(paths.account.getHref())}>
          {t('common.userMenu.account')}
        </DropdownMenu.Item>
        {onContinueOnPhone ? (
          <DropdownMenu.Item className={styles.item} onSelect={() => onContinueOnPhone(trigger.current)}>
            {t('common.userMenu.continueOnPhone')}
          </DropdownMenu.Item>
        ) : null}
        {chatEnabled ? (
          <DropdownMenu.Item className={styles.item} onSelect={() => raiseChatSelected(trigger.current)}>
            {companyName ? t('nav.userMenu.chat', { company: companyName }) : t('nav.userMenu.chatNoCompany')}
            {shownUnread > 0 ? (
              <span className={styles.itemBadge}>
                <span className="visually-hidden">, </span>
                <span aria-hidden="true">{badgeOf(shownUnread)}</span>
                <span className="visually-hidden">{t('nav.userMenu.chatUnread', { count: shownUnread })}</span>
              </span>
            ) : null}
          </DropdownMenu.Item>
        ) : null}
        <DropdownMenu.Item className={styles.item} onSelect={() => void logout()}>
          {t('common.userMenu.logout')}
        </DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
