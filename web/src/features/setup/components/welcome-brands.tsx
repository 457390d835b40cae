// Who is asking, at the top of the welcome step, once the invitation or the
// login named the employer. The brands themselves (the provider's and the
// employer's logo) are in the top bar, as on every page.
import '@/features/setup/lib/messages';
import type { Employer } from '@/components/trust-panel/trust-panel';
import { t } from '@/lib/i18n';
import styles from './setup-wizard.module.css';

export function WelcomeBrands({ employer }: { employer: Employer | null }) {
  if (!employer) return null;
  return <p className={styles.employer}>{t('setup.welcome.requestedBy', { employer: employer.name })}</p>;
}
