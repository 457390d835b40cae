// The maintenance banner: a dismissible red warning with the server's message,
// shown to logged-in applicants, and shown or hidden live as operators change it.
import { useActiveBanner, useLiveBanner } from '../api/get-active-banner';
import { useDismissBanner } from '../api/dismiss-banner';
import styles from './maintenance-banner.module.css';
import { t } from '@/lib/i18n';

/**
 * The dismissed banner takes the focused button with it; without a new place
 * focus falls to <body> and a keyboard or screen reader user starts over from
 * the top. The main landmark (focusable, tabIndex -1, in the app frame) is
 * where the page's content starts.
 */
function focusMainContent() {
  document.getElementById('main')?.focus();
}

export function MaintenanceBanner() {
  const { data: banner } = useActiveBanner({ enabled: true });
  useLiveBanner();
  const dismiss = useDismissBanner();
  if (!banner) return null;
  return (
    <section className={styles.banner} aria-label={t('common.banner.label')}>
      <svg className={styles.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path fill="currentColor" d="M1 21h22L12 2 1 21zm12-3h-2v-2h2v2zm0-4h-2v-4h2v4z" />
      </svg>
      <p className={styles.message}>{banner.message}</p>
      <button
        type="button"
        className={styles.dismiss}
        onClick={() => dismiss.mutate(banner.id, { onSuccess: focusMainContent })}
        disabled={dismiss.isPending}
      >
        {t('common.banner.dismiss')}
      </button>
    </section>
  );
}
