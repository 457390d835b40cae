// /privacy: the demo's sample privacy notice, the default address of the
// footer's privacy link (--brand-privacy-url). A deployment points that
// setting at its own notice; this page then is only reachable by its path.
import { Alert } from '@/components/ui/alert';
import { PageHeader } from '@/components/ui/page-header';
import { config } from '@/lib/config';
import { addMessages, t } from '@/lib/i18n';
import messages from '@/locales/en-US/privacy.json';
import styles from './page.module.css';
import privacy from './privacy.module.css';

addMessages('privacy', messages);

const sections = [
  ['privacy.collect.title', 'privacy.collect.body'],
  ['privacy.use.title', 'privacy.use.body'],
  ['privacy.share.title', 'privacy.share.body'],
  ['privacy.protect.title', 'privacy.protect.body'],
  ['privacy.rights.title', 'privacy.rights.body'],
] as const;

export function PrivacyRoute() {
  const { brand } = config;
  const values = { brand: brand.name, email: brand.supportEmail, phone: brand.supportPhone };
  return (
    <div className={styles.page}>
      <PageHeader title={t('privacy.title')} description={t('privacy.intro', values)} />
      <Alert tone="info">
        <p>{t('privacy.sample')}</p>
      </Alert>
      <div className={privacy.sections}>
        {sections.map(([title, body]) => (
          <section key={title}>
            <h2>{t(title)}</h2>
            <p>{t(body, values)}</p>
          </section>
        ))}
      </div>
    </div>
  );
}
