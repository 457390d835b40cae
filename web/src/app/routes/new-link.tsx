import '@/features/auth/lib/signin-messages';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import styles from '@/features/auth/components/auth-card.module.css';
import type { LinkState } from '@/features/auth/api/renew-link';
import { NewLink, newLinkTitle } from '@/features/auth/components/new-link';
import { useFocusTitle } from '@/lib/focus-title';

/** /new-link?kind=invitation|reset&token=…: a link that no longer works, and a new one on request. */
export function NewLinkRoute() {
  const [searchParams] = useSearchParams();
  const raw = searchParams.get('kind');
  const kind = raw === 'reset' ? 'reset' : raw === 'invitation' ? 'invitation' : null;
  const token = searchParams.get('token');
  const [state, setState] = useState<LinkState | null>(null);
  // A page arrived at by a redirect (setup's 403, a spent reset link): the reader starts at its title.
  useFocusTitle('new-link-title');
  return (
    <section className={styles.card} aria-labelledby="new-link-title">
      <h1 id="new-link-title" className={styles.title}>
        {newLinkTitle(token ? kind : null, state)}
      </h1>
      <NewLink kind={kind ?? 'invitation'} token={token} onState={setState} />
    </section>
  );
}
