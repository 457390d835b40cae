// /continue?token=...: a link to continue on another device. It signs this device in once (a second
// look at the same link, e.g. React's double effects in development, never spends it twice) and opens
// the page the link was made on; a used, expired or unknown link gets a page saying what happened and
// what to do, with focus on its heading.
import '@/features/handoff/lib/messages';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { redeemHandoff } from '@/features/handoff/api/handoff';
import { refusalOf, type HandoffRefusal } from '@/features/handoff/lib/refusal';
import styles from '@/features/auth/components/auth-card.module.css';
import { t, type MessageKey } from '@/lib/i18n';
import { useFocusTitle } from '@/lib/focus-title';
import { useSession } from '@/lib/session';

// Keys, not messages: a message made at import would be English before the catalogue loads (lib/i18n.ts).
const TITLE: Record<HandoffRefusal, MessageKey> = {
  used: 'handoff.continue.usedTitle',
  expired: 'handoff.continue.expiredTitle',
  invalid: 'handoff.continue.invalidTitle',
  failed: 'handoff.continue.failedTitle',
};

const BODY: Record<Exclude<HandoffRefusal, 'failed'>, MessageKey> = {
  used: 'handoff.continue.usedBody',
  expired: 'handoff.continue.expiredBody',
  invalid: 'handoff.continue.invalidBody',
};

function Refused({ refusal, message }: { refusal: HandoffRefusal; message: string }) {
  const loggedIn = useSession((s) => s.loggedIn);
  useFocusTitle('continue-title', refusal);
  return (
    <section className={styles.card} aria-labelledby="continue-title">
      <h1 id="continue-title" className={styles.title}>
        {t(TITLE[refusal])}
      </h1>
      <p className={styles.intro}>{refusal === 'failed' ? message : t(BODY[refusal])}</p>
      <h2 className={styles.subtitle}>{t('handoff.continue.whatToDo')}</h2>
      <p>{t('handoff.continue.askNew')}</p>
      {loggedIn ? (
        <Link to="/">{t('handoff.continue.home')}</Link>
      ) : (
        <>
          <p>{t('handoff.continue.logIn')}</p>
          <Link to={paths.login.getHref()}>{t('handoff.continue.login')}</Link>
        </>
      )}
    </section>
  );
}

export function ContinueRoute() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const navigate = useNavigate();
  const [refused, setRefused] = useState<{ refusal: HandoffRefusal; message: string } | null>(() =>
    token ? null : { refusal: 'invalid', message: '' },
  );
  // The link works once: redeem it once per token, even when effects run twice.
  const redeemed = useRef<string | null>(null);

  useEffect(() => {
    if (!token || redeemed.current === token) return;
    redeemed.current = token;
    redeemHandoff(token)
      .then((path) => navigate(path, { replace: true }))
      .catch((error: unknown) =>
        setRefused({ refusal: refusalOf(error), message: error instanceof Error ? error.message : '' }),
      );
  }, [token, navigate]);

  if (refused) return <Refused {...refused} />;
  return (
    <section className={styles.card} aria-labelledby="continue-title">
      <h1 id="continue-title" className={styles.title}>
        {t('common.route.continue')}
      </h1>
      <p role="status" className={styles.intro}>
        {t('handoff.continue.redeeming')}
      </p>
    </section>
  );
}
