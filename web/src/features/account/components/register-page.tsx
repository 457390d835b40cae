// /register/{token?}: the public page an employer's e-mail may link to. With a
// token it is an invitation link by another name and continues into setup;
// without one it explains how an applicant gets an invitation.
import '@/features/account/lib/messages';
import { Link, Navigate } from 'react-router';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { paths } from '@/config/paths';
import { config } from '@/lib/config';
import { t } from '@/lib/i18n';
import styles from './account.module.css';

export function RegisterPage({ token }: { token: string | undefined }) {
  if (token) return <Navigate to={paths.setup.getHref(token)} replace />;
  const { brand } = config;
  return (
    <div className={styles.page}>
      <PageHeader title={t('account.register.title')} description={t('account.register.intro')} />
      <Card className={styles.form}>
        <h2 className={styles.heading}>{t('account.register.howTitle')}</h2>
        <ol className={styles.steps}>
          <li>{t('account.register.step1')}</li>
          <li>{t('account.register.step2')}</li>
          <li>{t('account.register.step3')}</li>
        </ol>
        <p>
          {t('account.register.haveAccount')} <Link to={paths.login.getHref()}>{t('account.register.login')}</Link>
        </p>
      </Card>
      <Card className={styles.form}>
        <h2 className={styles.heading}>{t('account.register.helpTitle')}</h2>
        <p>{t('account.register.helpText', { brand: brand.name })}</p>
        <p>
          {brand.supportEmail ? <a href={`mailto:${brand.supportEmail}`}>{brand.supportEmail}</a> : null}
          {brand.supportEmail && brand.supportPhone ? <br /> : null}
          {brand.supportPhone ? (
            <a href={`tel:${brand.supportPhone.replace(/[^\d+]/g, '')}`}>{brand.supportPhone}</a>
          ) : null}
        </p>
      </Card>
    </div>
  );
}
