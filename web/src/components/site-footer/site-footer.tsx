// The footer of every page: who runs the portal and how to reach a person,
// the thing people look for first when something goes wrong.
import { config, type Brand } from '@/lib/config';
import { t } from '@/lib/i18n';
import styles from './site-footer.module.css';

/** tel: wants digits and a leading +, not the spaced display form. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

export function SiteFooter({ brand = config.brand }: { brand?: Brand }) {
  return (
    <footer className={styles.footer}>
      <div className={styles.inner}>
        <div className={styles.help}>
          <p className={styles.heading}>{t('layout.footer.help')}</p>
          <ul className={styles.contacts} aria-label={t('layout.footer.contacts')}>
            <li>
              <a href={`mailto:${brand.supportEmail}`}>{brand.supportEmail}</a>
            </li>
            <li>
              <a href={telHref(brand.supportPhone)}>{brand.supportPhone}</a>
            </li>
          </ul>
        </div>
        <div className={styles.legal}>
          <a href={brand.privacyPolicyUrl}>{t('layout.footer.privacy')}</a>
          <p className={styles.copy}>{t('layout.footer.runBy', { brand: brand.name })}</p>
        </div>
      </div>
    </footer>
  );
}
