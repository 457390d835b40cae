// On /login, where the spec's token guard sends an invitation link the server refused: what happened
// to the link and "Send me a new link" (issue 25), loaded only when such a link brought the visitor.
import '../lib/signin-messages';
import { useState } from 'react';
import type { LinkState } from '../api/renew-link';
import { useFocusTitle } from '@/lib/focus-title';
import { NewLink, newLinkTitle } from './new-link';
import styles from './auth-card.module.css';

const TITLE_ID = 'refused-invitation-title';

export function RefusedInvitation({ token }: { token: string }) {
  const [state, setState] = useState<LinkState | null>(null);
  // The reader starts at what happened to their link, above the login form.
  useFocusTitle(TITLE_ID);
  return (
    <section className={styles.refused} aria-labelledby={TITLE_ID}>
      <h2 id={TITLE_ID} className={styles.subtitle}>
        {newLinkTitle('invitation', state)}
      </h2>
      <NewLink kind="invitation" token={token} onState={setState} onLoginPage />
    </section>
  );
}
