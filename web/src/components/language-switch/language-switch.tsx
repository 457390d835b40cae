// The language switch of every page's top bar (issue 26): one button that
// names the other language in that language ("Español", "English"), as
// people look for their own language's name. It writes the locale cookie,
// tells the server when signed in (e-mails and texts follow the applicant's
// language), and reloads the page in the new language (lib/locale.ts).
import { currentLocale, type Locale, setLocaleCookie } from '@/lib/locale';
import styles from './language-switch.module.css';

/** Each language's name in itself, which no catalogue translates. */
const OWN_NAME: Record<Locale, string> = { 'en-US': 'English', 'es-US': 'Español' };

/** `onSwitch`: what must happen before the reload, such as telling the server (the logged-in top bar). */
export function LanguageSwitch({ onSwitch }: { onSwitch?: (locale: Locale) => Promise<unknown> }) {
  const other: Locale = currentLocale() === 'es-US' ? 'en-US' : 'es-US';
  return (
    <button
      type="button"
      className={styles.switch}
      lang={other}
      onClick={() => {
        setLocaleCookie(other);
        // The reload waits for the server at most a moment: a lost call only leaves e-mails in the old language.
        void Promise.race([
          onSwitch?.(other).catch(() => undefined),
          new Promise((done) => setTimeout(done, 1500)),
        ]).then(() => window.location.reload());
      }}
    >
      {OWN_NAME[other]}
    </button>
  );
}
