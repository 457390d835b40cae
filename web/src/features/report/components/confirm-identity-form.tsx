// Before a report opens, the applicant confirms who they are again: the date of birth and the last
// four SSN digits (the date alone without an SSN). Five wrong answers lock it for 15 minutes: the
// page then says until when, and asks again when the lock ends.
import '@/features/report/lib/messages';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { DateField } from '@/components/ui/date-field';
import { TextField } from '@/components/ui/text-field';
import { ApiError } from '@/lib/api-client';
import { useAppForm } from '@/lib/form';
import { useFailedSave } from '@/lib/failed-save';
import { useKeepFocusOnPress } from '@/lib/keep-focus';
import { t } from '@/lib/i18n';
import { confirmIdentitySchema, useConfirmIdentity, type ConfirmIdentityValues } from '../api/confirm-identity';
import { reportAccessQuery, type ReportAccess } from '../api/get-report-access';
import styles from './report.module.css';
import { currentLocale } from '@/lib/locale';

/** The time a lock ends, as the applicant's clock shows it ("10:45 AM"). */
export function lockEnd(iso: string) {
  return new Date(iso).toLocaleTimeString(currentLocale(), { hour: 'numeric', minute: '2-digit' });
}

export function LockedNotice({ until }: { until: string }) {
  const client = useQueryClient();
  useEffect(() => {
    // Asks again once the lock ends (a little after, so the server agrees).
    const wait = Math.max(0, new Date(until).getTime() - Date.now()) + 1000;
    const timer = setTimeout(() => void client.invalidateQueries({ queryKey: reportAccessQuery().queryKey }), wait);
    return () => clearTimeout(timer);
  }, [client, until]);
  return (
    <Alert tone="warning" title={t('report.confirm.lockedTitle')} focusOnMount>
      <p>{t('report.confirm.locked', { time: lockEnd(until) })}</p>
      <p>{t('report.confirm.lockedHelp')}</p>
    </Alert>
  );
}

export function ConfirmIdentityForm({ access }: { access: ReportAccess }) {
  const client = useQueryClient();
  const form = useAppForm<ConfirmIdentityValues>(confirmIdentitySchema(access.ssnRequired), {
    defaultValues: { dob: '', ssnLast4: '' },
  });
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = form;
  const failed = useFailedSave(form);
  useKeepFocusOnPress(failed.formRef);
  const confirm = useConfirmIdentity(access.ssnRequired);

  const submit = handleSubmit(async (values) => {
    failed.clear();
    try {
      await confirm.mutateAsync(values);
    } catch (error) {
      if (error instanceof ApiError && error.status === 429) {
        // The lock: the access read again says until when.
        await client.invalidateQueries({ queryKey: reportAccessQuery().queryKey });
        return;
      }
      failed.onServerError(error, {
        failure: t('report.confirm.failed'),
        fieldsOnly: error instanceof ApiError && error.status === 422,
      });
    }
  }, failed.onInvalid);

  if (access.lockedUntil) return <LockedNotice until={access.lockedUntil} />;
  return (
    <form
      ref={failed.formRef}
      onSubmit={submit}
      noValidate
      aria-labelledby="report-confirm-title"
      className={styles.form}
    >
      <h2 id="report-confirm-title" className={styles.heading}>
        {t('report.confirm.title')}
      </h2>
      <p>{t('report.confirm.intro')}</p>
      {access.ssnRequired ? null : <p>{t('report.confirm.noSSN')}</p>}
      <ErrorSummary key={failed.attempt} {...failed.summary} />
      <DateField
        label={t('report.confirm.dob')}
        autoComplete="bday"
        required
        error={errors.dob?.message}
        {...register('dob')}
      />
      {access.ssnRequired ? (
        <TextField
          label={t('report.confirm.ssn')}
          hint={t('report.confirm.ssnHint')}
          inputMode="numeric"
          autoComplete="off"
          maxLength={4}
          required
          className={styles.ssn}
          error={errors.ssnLast4?.message}
          {...register('ssnLast4')}
        />
      ) : null}
      <div>
        <Button type="submit" loading={isSubmitting}>
          {isSubmitting ? t('report.confirm.submitting') : t('report.confirm.submit')}
        </Button>
      </div>
    </form>
  );
}
