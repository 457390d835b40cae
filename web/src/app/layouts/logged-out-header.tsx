// The top bar before login: the provider's brand on every page, and the
// employer's once the page knows it (the invitation's user on /setup), and
// the language switch.
import { LanguageSwitch } from '@/components/language-switch/language-switch';
import { HeaderBrands, type HeaderEmployer } from '@/components/logo/header-brands';
import styles from '@/features/user-menu/components/top-bar.module.css';

export function LoggedOutHeader({ employer }: { employer?: HeaderEmployer | null }) {
  return (
    <header className={styles.bar}>
      <span className={styles.homeLink}>
        <HeaderBrands employer={employer} />
      </span>
      <LanguageSwitch />
    </header>
  );
}
