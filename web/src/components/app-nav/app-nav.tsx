// The way around the data pages after setup: a side menu on wide screens and,
// on phones, a disclosure button ("Your profile: 3 of 7 done") that opens the
// same list (only one of the two is displayed, so a screen reader meets one). Each checklist page says in words whether it is done, so the
// state never rests on colour or an icon alone.
import '@/components/app-nav/messages';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { paths } from '@/config/paths';
import { t } from '@/lib/i18n';
import type { ChecklistPage } from '@/lib/subject';
import styles from './app-nav.module.css';

type AppNavProps = {
  /** The checklist pages in the server's order; undefined while they load or when they could not be had. */
  pages: ChecklistPage[] | undefined;
};

const stateLabel = { done: 'nav.done', todo: 'nav.toDo', optional: 'nav.optional' } as const;

function NavItem({
  to,
  label,
  state,
  marksCurrent = true,
}: {
  to: string;
  label: string;
  /** Optional pages (documents nobody requires) are neither done nor to do: they say "optional". */
  state?: 'done' | 'todo' | 'optional';
  /** False for a page signed on another item's page ("DOT Releases" on /employment): one current item only. */
  marksCurrent?: boolean;
}) {
  // A plain Link takes no `end`: only a NavLink marks the current page.
  const Item = marksCurrent ? NavLink : Link;
  return (
    <li>
      <Item to={to} {...(marksCurrent && { end: true })} className={styles.link}>
        <span className={styles.label}>{label}</span>{' '}
        {state ? (
          <span className={styles.state} data-state={state}>
            {state === 'optional' ? null : (
              <span aria-hidden="true" className={styles.mark}>
                {state === 'done' ? '✓' : '○'}
              </span>
            )}
            <span className={state === 'done' ? 'visually-hidden' : undefined}>{t(stateLabel[state])}</span>
          </span>
        ) : null}
      </Item>
    </li>
  );
}

export function AppNav({ pages }: AppNavProps) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const { pathname } = useLocation();
  const toggleRef = useRef<HTMLButtonElement>(null);

  // A link followed on a phone closes the menu: the page it leads to is what the applicant wants to see.
  // The focus goes to its h1 (usePageChangeFocus, for every page change).
  useEffect(() => setOpen(false), [pathname]);

  // Escape closes the open menu and hands the focus back to its button.
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  // Progress counts what the screening needs; optional pages are offered, not owed.
  const required = pages?.filter((p) => p.required) ?? [];
  const done = required.filter((p) => p.complete).length;
  const progress = pages ? t('nav.progress', { done, total: required.length }) : t('nav.title');

  return (
    <nav className={styles.nav} aria-label={t('nav.title')}>
      <button
        ref={toggleRef}
        type="button"
        className={styles.toggle}
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
      >
        <span>{progress}</span>
        <span aria-hidden="true" className={styles.chevron} data-open={open} />
      </button>
      <div id={listId} className={styles.panel} data-open={open}>
        <p className={styles.heading}>{progress}</p>
        <ul className={styles.list}>
          <NavItem to={paths.profile.getHref()} label={t('nav.profile')} />
          {pages?.map((page, i) => (
            <NavItem
              key={page.id}
              to={page.path}
              label={page.title}
              state={!page.required ? 'optional' : page.complete ? 'done' : 'todo'}
              marksCurrent={
                page.path !== paths.profile.getHref() && !pages.slice(0, i).some((p) => p.path === page.path)
              }
            />
          ))}
          <NavItem to={paths.confirmation.getHref()} label={t('nav.review')} />
          <NavItem to={paths.account.getHref()} label={t('nav.account')} />
        </ul>
      </div>
    </nav>
  );
}
