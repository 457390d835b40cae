// /personal: the personal information form on its own, filled from the
// server's latest answer rather than what the session kept; once saved, on to
// the next page still to do (or back to the review it was opened from).
import '@/features/personal/lib/messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { PersonalForm } from '@/features/personal/components/personal-form';
import { errorMessageOf } from '@/lib/api-client';
import { currentUserQuery } from '@/lib/current-user';
import { invalidateSubject, pathAfterSave } from '@/lib/subject';
import styles from './page.module.css';
import { t } from '@/lib/i18n';

export function PersonalRoute() {
  // Asked again on every visit; the form waits for this answer, not the cached one.
  const user = useQuery({ ...currentUserQuery(), refetchOnMount: 'always' });
  const client = useQueryClient();
  const navigate = useNavigate();
  const { search } = useLocation();
  const onSaved = async () => {
    await invalidateSubject(client);
    await navigate(await pathAfterSave(client, 'personal', search));
  };
  return (
    <div className={styles.page}>
      <PageHeader title={t('common.personal.title')} />
      {user.isError ? (
        <Alert>
          <p>{t('errors.personal.retrieve', { reason: errorMessageOf(user.error) })}</p>
          <Button variant="secondary" onClick={() => void user.refetch()}>
            {t('common.tryAgain')}
          </Button>
        </Alert>
      ) : user.isFetchedAfterMount && user.data ? (
        <PersonalForm submitLabel={t('personal.form.saveAndContinue')} onSaved={() => void onSaved()} />
      ) : (
        <p role="status">{t('common.personal.loading')}</p>
      )}
    </div>
  );
}
