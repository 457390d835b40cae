// /account is a public route: logged in, it holds the account's settings;
// logged out, it says they need a login and links to it.
import '@/features/account/lib/messages';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { companySettingsQuery, currentUserQuery } from '@/lib/current-user';
import { t } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import { EmailForm, NotificationForm, PasswordForm } from './account-forms';
import styles from './account.module.css';

function LoggedOut() {
  return (
    <div className={styles.page}>
      <PageHeader title={t('account.title')} />
      <Card>
        <p>{t('account.loggedOut.text')}</p>
        <Link to={paths.login.getHref()}>{t('account.loggedOut.login')}</Link>
      </Card>
    </div>
  );
}

function Settings() {
  // A public route's guard loads nobody: after a reload the user is fetched here.
  const user = useQuery(currentUserQuery());
  const settings = useQuery({ ...companySettingsQuery(user.data?.company.id ?? 0), enabled: Boolean(user.data) });
  if (user.error) {
    return (
      <div className={styles.page}>
        <PageHeader title={t('account.title')} />
        <Alert title={t('errors.user.get')}>
          <Button variant="secondary" onClick={() => void user.refetch()}>
            {t('common.tryAgain')}
          </Button>
        </Alert>
      </div>
    );
  }
  if (!user.data || settings.isPending) {
    return (
      <div className={styles.page}>
        <PageHeader title={t('account.title')} />
        <Skeleton lines={6} label={t('account.loading')} />
      </div>
    );
  }
  const minLength = settings.data?.preferences.company_subject_password_length ?? 15;
  return (
    <div className={styles.page}>
      <PageHeader title={t('account.title')} description={t('account.intro')} />
      <Card>
        <NotificationForm user={user.data} />
      </Card>
      <Card>
        <PasswordForm user={user.data} minLength={minLength} />
      </Card>
      <Card>
        <EmailForm user={user.data} />
      </Card>
    </div>
  );
}

export function AccountPage() {
  const loggedIn = useSession((s) => s.loggedIn);
  return loggedIn ? <Settings /> : <LoggedOut />;
}
