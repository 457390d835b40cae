// /disputes/:id: where one dispute stands, as a timeline (received, being looked into, resolved with
// its outcome), the due date and the days left, what the applicant sent, the messages with the
// screening team, and "Add information" (which may extend the deadline to 45 days). It follows the
// dispute live: an operator's answer or resolution shows without a reload.
import '@/features/disputes/lib/messages';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { TextAreaField } from '@/components/ui/text-field';
import { LoadFailed } from '@/components/load-failed/load-failed';
import { UploadField } from '@/components/upload-field/upload-field';
import { paths } from '@/config/paths';
import { ApiError, errorMessageOf } from '@/lib/api-client';
import { useFailedSave } from '@/lib/failed-save';
import { useAppForm } from '@/lib/form';
import { longDate } from '@/lib/format-date';
import { t } from '@/lib/i18n';
import { notify } from '@/lib/notifications';
import { useLiveScreening } from '@/lib/screening-events';
import { z } from 'zod/mini';
import {
  MAX_DISPUTE_FILES,
  MAX_DISPUTE_TEXT,
  addDisputeInformation,
  disputeQuery,
  downloadDisputeFile,
  invalidateDisputes,
  useDispute,
  type Dispute,
  type DisputeFile,
} from '../api/disputes';
import { charactersLeft, outcomeLabel, partLabel, reasonLabel, stateLabel } from '../lib/dispute-schema';
import { EvidenceList } from './dispute-form';
import { useFocusTitle } from '@/lib/focus-title';
import styles from './disputes.module.css';

const TITLE_ID = 'dispute-title';

/** "12 days left", or that the answer is due now. */
export function daysLeftText(days: number) {
  if (days <= 0) return t('disputes.page.overdue');
  return days === 1 ? t('disputes.page.dayLeft') : t('disputes.page.daysLeft', { count: days });
}

function Timeline({ dispute }: { dispute: Dispute }) {
  const order = ['received', 'reinvestigating', 'resolved'] as const;
  const at = order.indexOf(dispute.state);
  const text = {
    received: t('disputes.page.step.received', { date: longDate(dispute.receivedAt) }),
    reinvestigating: at >= 1 ? t('disputes.page.step.reinvestigating') : t('disputes.page.step.reinvestigatingNext'),
    resolved: dispute.outcome
      ? t('disputes.page.step.resolved', { outcome: outcomeLabel(dispute.outcome) })
      : t('disputes.page.step.resolvedPending'),
  };
  return (
    <ol className={styles.timeline} aria-label={t('disputes.page.timeline')}>
      {order.map((state, i) => (
        <li
          key={state}
          className={styles.step}
          data-done={i <= at || undefined}
          data-current={i === at || undefined}
          aria-current={i === at ? 'step' : undefined}
        >
          <span className={styles.stepName}>{stateLabel(state)}</span>
          <span className={styles.muted}>{text[state]}</span>
        </li>
      ))}
    </ol>
  );
}

function FileLinks({ disputeId, files }: { disputeId: number; files: DisputeFile[] }) {
  if (files.length === 0) return null;
  return (
    <ul className={styles.files}>
      {files.map((file) => (
        <li key={file.id}>
          <Button
            variant="link"
            onClick={() =>
              void downloadDisputeFile(disputeId, file).catch((error: unknown) =>
                notify(errorMessageOf(error), 'error'),
              )
            }
          >
            {t('disputes.page.download', { name: file.name })}
          </Button>
        </li>
      ))}
    </ul>
  );
}

const informationSchema = z.object({
  message: z
    .string()
    .check(
      z.trim(),
      z.maxLength(MAX_DISPUTE_TEXT, { error: () => t('disputes.form.explanationTooLong', { max: MAX_DISPUTE_TEXT }) }),
    ),
});

/** Add information: text and/or files, sent together. */
function AddInformation({ dispute }: { dispute: Dispute }) {
  const form = useAppForm(informationSchema, { defaultValues: { message: '' } });
  const { register, handleSubmit, watch, reset, setError, formState } = form;
  const failed = useFailedSave(form);
  const [files, setFiles] = useState<File[]>([]);
  const [pickerKey, setPickerKey] = useState(0);
  const client = useQueryClient();

  const submit = handleSubmit(async (values) => {
    failed.clear();
    if (!values.message && files.length === 0) {
      setError('message', { type: 'required', message: t('disputes.info.messageRequired') }, { shouldFocus: true });
      return;
    }
    try {
      const updated = await addDisputeInformation(dispute.id, values.message, files);
      client.setQueryData(disputeQuery(dispute.id).queryKey, updated);
      await invalidateDisputes(client);
      reset();
      setFiles([]);
      setPickerKey((k) => k + 1);
      notify(t('disputes.info.sent'), 'success');
    } catch (error) {
      failed.onServerError(error, { failure: t('disputes.info.failed') });
    }
  }, failed.onInvalid);

  return (
    <Card aria-labelledby="dispute-info-title" className={styles.card}>
      <h2 id="dispute-info-title" className={styles.heading}>
        {t('disputes.info.title')}
      </h2>
      <p className={styles.plain}>{t('disputes.info.hint')}</p>
      <form
        ref={failed.formRef}
        noValidate
        onSubmit={submit}
        className={styles.form}
        aria-labelledby="dispute-info-title"
      >
        <ErrorSummary key={failed.attempt} {...failed.summary} />
        <div>
          <TextAreaField
            label={t('disputes.info.message')}
            rows={4}
            aria-describedby="dispute-info-count"
            error={formState.errors.message?.message}
            {...register('message')}
          />
          <p id="dispute-info-count" className={styles.count} aria-live="polite">
            {charactersLeft(watch('message'))}
          </p>
        </div>
        <UploadField
          key={pickerKey}
          label={t('disputes.info.files')}
          hint={t('disputes.form.evidenceHint', { max: MAX_DISPUTE_FILES })}
          announceUploaded={false}
          upload={async (file) => {
            if (files.length >= MAX_DISPUTE_FILES)
              throw new ApiError(422, { errorMessage: t('disputes.form.evidenceTooMany', { max: MAX_DISPUTE_FILES }) });
            setFiles((list) => [...list, file]);
            return file;
          }}
        />
        <EvidenceList files={files} onRemove={(file) => setFiles((list) => list.filter((f) => f !== file))} />
        <div>
          <Button type="submit" loading={formState.isSubmitting}>
            {formState.isSubmitting ? t('disputes.info.sending') : t('disputes.info.send')}
          </Button>
        </div>
      </form>
    </Card>
  );
}

export function DisputePage({ id }: { id: number }) {
  const dispute = useDispute(id);
  useLiveScreening(['dispute'], [disputeQuery(id).queryKey]);
  useFocusTitle(TITLE_ID, dispute.data ? 'loaded' : 'loading');
  if (dispute.isError) {
    return (
      <div className={styles.page}>
        <PageHeader title={t('common.route.dispute')} titleId={TITLE_ID} />
        <LoadFailed
          title={t('common.route.dispute')}
          text={t('disputes.page.loadFailed', { reason: errorMessageOf(dispute.error) })}
          retry={dispute.refetch}
        />
      </div>
    );
  }
  if (!dispute.data) {
    return (
      <div className={styles.page}>
        <PageHeader title={t('common.route.dispute')} titleId={TITLE_ID} />
        <Skeleton lines={5} label={t('disputes.page.loading')} />
      </div>
    );
  }
  const d = dispute.data;
  const open = d.state !== 'resolved';
  return (
    <div className={styles.page}>
      <p className={styles.back}>
        <Link to={paths.disputes.getHref()}>{t('disputes.page.back')}</Link>
      </p>
      <PageHeader
        title={t('disputes.page.title', { part: partLabel(d.serviceCode, d.serviceName) })}
        titleId={TITLE_ID}
        description={reasonLabel(d.reason)}
      />
      <Card aria-labelledby="dispute-progress-title" className={styles.card}>
        <h2 id="dispute-progress-title" className={styles.heading}>
          {t('disputes.page.timeline')}
        </h2>
        <Timeline dispute={d} />
        {open ? (
          <p className={styles.due}>
            <strong>{t('disputes.page.due', { date: longDate(d.dueAt) })}</strong> · {daysLeftText(d.daysLeft)}
          </p>
        ) : null}
        {open && d.extended ? <p className={styles.muted}>{t('disputes.page.extended')}</p> : null}
        {d.state === 'resolved' && d.outcome ? (
          <div className={styles.resolution} role="status">
            <h3 className={styles.subheading}>
              {t('disputes.page.resolution')}: {outcomeLabel(d.outcome)}
            </h3>
            <p className={styles.preWrap}>{d.resolution}</p>
            {d.resolvedAt ? <p className={styles.muted}>{longDate(d.resolvedAt)}</p> : null}
          </div>
        ) : null}
      </Card>
      <Card aria-labelledby="dispute-messages-title" className={styles.card}>
        <h2 id="dispute-messages-title" className={styles.heading}>
          {t('disputes.page.messages')}
        </h2>
        {d.messages.length === 0 ? (
          <p className={styles.muted}>{t('disputes.page.noMessages')}</p>
        ) : (
          <ol className={styles.messages}>
            {d.messages.map((m) => (
              <li key={m.id} className={styles.message} data-author={m.author}>
                <p className={styles.messageHead}>
                  <strong>
                    {m.author === 'operator' ? t('disputes.page.fromOperator') : t('disputes.page.fromYou')}
                  </strong>{' '}
                  <span className={styles.muted}>{longDate(m.createdAt)}</span>
                </p>
                {m.message ? <p className={styles.preWrap}>{m.message}</p> : null}
                <FileLinks disputeId={d.id} files={m.files} />
              </li>
            ))}
          </ol>
        )}
      </Card>
      <Card aria-labelledby="dispute-yours-title" className={styles.card}>
        <h2 id="dispute-yours-title" className={styles.heading}>
          {t('disputes.page.yours')}
        </h2>
        <dl className={styles.summary}>
          <div className={styles.summaryRow}>
            <dt>{t('disputes.page.reason')}</dt>
            <dd>{reasonLabel(d.reason)}</dd>
          </div>
          <div className={styles.summaryRow}>
            <dt>{t('disputes.page.explanation')}</dt>
            <dd className={styles.preWrap}>{d.explanation}</dd>
          </div>
          {d.files.length > 0 ? (
            <div className={styles.summaryRow}>
              <dt>{t('disputes.page.files')}</dt>
              <dd>
                <FileLinks disputeId={d.id} files={d.files} />
              </dd>
            </div>
          ) : null}
        </dl>
      </Card>
      {open ? <AddInformation dispute={d} /> : <p className={styles.muted}>{t('disputes.info.closed')}</p>}
    </div>
  );
}
