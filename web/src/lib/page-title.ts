// A page's own title, where the route's one title (router.tsx) says too little: each setup step,
// each printed document. The newest title set by a mounted page wins over the route's; the root
// layout writes it into document.title (WCAG 2.4.2: every page titled by what it is).
import { useEffect, useSyncExternalStore } from 'react';
import { t } from './i18n';

let titles: { id: number; title: string }[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const current = () => titles.at(-1)?.title ?? null;

/** Titles the document by this page while it is mounted (nothing while `title` is empty: the route's stays). */
export function usePageTitle(title: string | null | undefined) {
  useEffect(() => {
    if (!title) return;
    const id = nextId++;
    titles = [...titles, { id, title }];
    emit();
    return () => {
      titles = titles.filter((t) => t.id !== id);
      emit();
    };
  }, [title]);
}

/** The title a mounted page set, if any (the root layout's). */
export function usePageTitleOverride(): string | null {
  return useSyncExternalStore(subscribe, current, current);
}

/** The document's title for a page's title: "Login | Applicant Portal", the portal's name alone without one. */
export function documentTitle(title: string | null | undefined): string {
  const app = t('common.appTitle');
  return title ? `${title} | ${app}` : app;
}
