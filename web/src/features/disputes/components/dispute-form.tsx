// /disputes/new: the applicant says what is wrong in their report (FCRA section 611), in GOV.UK's
// pattern: the questions on one page (what is wrong, which part, the explanation with a character
// count, evidence), then "Check your answers" with a Change link per answer and the declaration, then
// one send. Nothing typed is lost when the send fails: the questions come back with the server's
// messages on their fields.
import '@/features/disputes/lib/messages';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { RadioGroup } from '@/components/ui/radio-group';
import { TextAreaField } from '@/components/ui/text-field';
import { formatFileSize, UploadField } from '@/components/upload-field/upload-field';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { useFailedSave } from '@/lib/failed-save';
import { useAppForm } from '@/lib/form';
import { t, type MessageKey } from '@/lib/i18n';
import { notify } from '@/lib/notifications';
import type { PackageService } from '@/types/api';
import { DISPUTE_REASONS, MAX_DISPUTE_FILES, invalidateDisputes, openDispute } from '../api/disputes';
import {
  WHOLE_REPORT,
  charactersLeft,
  disputeSchema,
  reasonHint,
  reasonLabel,
  type DisputeValues,
} from '../lib/dispute-schema';
import { useFocusTitle } from '@/lib/focus-title';
import styles from './disputes.module.css';

const TITLE_ID = 'dispute-new-title';

type DisputeFormProps = {
  /** The services of the applicant's package: each may be disputed alone. */
  services: PackageService[];
  /** The service to preselect (`?service=CODE`); one not in the package is ignored. */
  service?: string | null;
};

/** The evidence chosen so far, kept here until the dispute is sent (the picker "sends" to this list). */
function useEvidence() {
  const [files, setFiles] = useState<File[]>([]);
  const held = useRef<File[]>([]);
  const set = (next: File[]) => {
    held.current = next;
    setFiles(next);
  };
  return {
    files,
    add: async (file: File) => {
      if (held.current.length >= MAX_DISPUTE_FILES) {
        throw new ApiError(422, { errorMessage: t('disputes.form.evidenceTooMany', { max: MAX_DISPUTE_FILES }) });
      }
      set([...held.current, file]);
      return file;
    },
    remove: (file: File) => set(held.current.filter((f) => f !== file)),
  };
}

const questionOf: Record<string, MessageKey> = {
  reason: 'disputes.form.reason',
  serviceCode: 'disputes.form.part',
};

export function DisputeForm({ services, service }: DisputeFormProps) {
  const preselected = services.some((s) => s.code === service) ? (service as string) : '';
  const form = useAppForm(disputeSchema, {
    defaultValues: { reason: '' as DisputeValues['reason'], serviceCode: preselected, explanation: '' },
  });
  const { register, handleSubmit, watch, getValues, formState } = form;
  const { errors } = formState;
  // A radio group's link in the error summary says its question, not its first option.
  const failed = useFailedSave(form, { labelOf: (f) => (questionOf[f.name] ? t(questionOf[f.name]) : f.label) });
  const evidence = useEvidence();
  const [step, setStep] = useState<'questions' | 'check'>('questions');
  const [sending, setSending] = useState(false);
  const [refused, setRefused] = useState<unknown>(null);
  const client = useQueryClient();
  const navigate = useNavigate();
  useFocusTitle(TITLE_ID, step);

  // A refused send comes back to the questions, whose fields must be on the page to take its messages.
  useEffect(() => {
    if (step !== 'questions' || refused === null) return;
    failed.onServerError(refused, { failure: t('disputes.form.failed') });
    setRefused(null);
  }, [step, refused, failed]);

  const change = (field: string) => {
    setStep('questions');
    // After the page is back, the answer to change takes focus (a radio group: its chosen radio).
    setTimeout(() =>
      (
        document.querySelector<HTMLElement>(`[name="${field}"]:checked`) ?? document.getElementById(`dispute-${field}`)
      )?.focus(),
    );
  };

  const send = async () => {
    const values = getValues();
    setSending(true);
    try {
      const dispute = await openDispute({
        reason: values.reason,
        serviceCode: values.serviceCode === WHOLE_REPORT ? '' : values.serviceCode,
        explanation: values.explanation.trim(),
        files: evidence.files,
      });
      await invalidateDisputes(client);
      notify(t('disputes.sent'), 'success');
      void navigate(paths.dispute.getHref(dispute.id));
    } catch (error) {
      setRefused(error);
      setStep('questions');
    } finally {
      setSending(false);
    }
  };

  const explanation = watch('explanation');
  const serviceCode = watch('serviceCode');
  const partOf = (code: string) =>
    code === WHOLE_REPORT ? t('disputes.form.partReport') : (services.find((s) => s.code === code)?.name ?? code);

  if (step === 'check') {
    const values = getValues();
    const rows = [
      { field: 'reason', label: t('disputes.check.reason'), value: reasonLabel(values.reason) },
      { field: 'serviceCode', label: t('disputes.check.part'), value: partOf(values.serviceCode) },
      { field: 'explanation', label: t('disputes.check.explanation'), value: values.explanation.trim() },
      {
        field: 'evidence',
        label: t('disputes.check.evidence'),
        value: evidence.files.length ? evidence.files.map((f) => f.name).join(', ') : t('disputes.check.noEvidence'),
      },
    ];
    return (
      <div className={styles.page}>
        <PageHeader
          title={t('disputes.check.title')}
          titleId={TITLE_ID}
          description={t('disputes.check.description')}
        />
        <Card className={styles.card}>
          <dl className={styles.summary}>
            {rows.map((row) => (
              <div key={row.field} className={styles.summaryRow}>
                <dt>{row.label}</dt>
                <dd className={styles.preWrap}>{row.value}</dd>
                <dd>
                  <Button
                    variant="link"
                    aria-label={`${t('disputes.check.change')} ${row.label.toLowerCase()}`}
                    onClick={() => change(row.field)}
                  >
                    {t('disputes.check.change')}
                  </Button>
                </dd>
              </div>
            ))}
          </dl>
          <h2 className={styles.heading}>{t('disputes.check.declarationTitle')}</h2>
          <p className={styles.plain}>{t('disputes.check.declaration')}</p>
          <div>
            <Button onClick={() => void send()} loading={sending}>
              {sending ? t('disputes.check.sending') : t('disputes.check.submit')}
            </Button>
          </div>
        </Card>
      </div>
    );
  }

  return (
    <div className={styles.page}>
      <PageHeader title={t('disputes.form.title')} titleId={TITLE_ID} description={t('disputes.form.description')} />
      <Card className={styles.card}>
        <form
          ref={failed.formRef}
          noValidate
          className={styles.form}
          aria-labelledby={TITLE_ID}
          onSubmit={handleSubmit(() => {
            failed.clear();
            setStep('check');
          }, failed.onInvalid)}
        >
          <ErrorSummary key={failed.attempt} {...failed.summary} />
          <RadioGroup
            id="dispute-reason"
            legend={t('disputes.form.reason')}
            required
            options={DISPUTE_REASONS.map((reason) => ({
              value: reason,
              label: reasonLabel(reason),
              hint: reasonHint(reason),
            }))}
            value={watch('reason')}
            error={errors.reason?.message}
            {...register('reason')}
          />
          <RadioGroup
            id="dispute-serviceCode"
            legend={t('disputes.form.part')}
            required
            options={[
              { value: WHOLE_REPORT, label: t('disputes.form.partReport') },
              ...services.map((s) => ({ value: s.code, label: s.name })),
            ]}
            value={serviceCode}
            error={errors.serviceCode?.message}
            {...register('serviceCode')}
          />
          <div>
            <TextAreaField
              id="dispute-explanation"
              label={t('disputes.form.explanation')}
              hint={t('disputes.form.explanationHint')}
              required
              rows={6}
              aria-describedby="dispute-explanation-count"
              error={errors.explanation?.message}
              {...register('explanation')}
            />
            <p id="dispute-explanation-count" className={styles.count} aria-live="polite">
              {charactersLeft(explanation)}
            </p>
          </div>
          <div id="dispute-evidence" tabIndex={-1}>
            <UploadField
              label={t('disputes.form.evidence')}
              hint={t('disputes.form.evidenceHint', { max: MAX_DISPUTE_FILES })}
              upload={evidence.add}
              announceUploaded={false}
            />
            <EvidenceList files={evidence.files} onRemove={evidence.remove} />
          </div>
          <div>
            <Button type="submit">{t('disputes.form.continue')}</Button>
          </div>
        </form>
      </Card>
    </div>
  );
}

/** The files chosen, each with its size and Remove; read out as they change. */
export function EvidenceList({ files, onRemove }: { files: File[]; onRemove: (file: File) => void }) {
  return (
    <div aria-live="polite">
      {files.length > 0 ? (
        <>
          <h3 className={styles.subheading}>{t('disputes.form.attached')}</h3>
          <ul className={styles.files}>
            {files.map((file, i) => (
              <li key={`${file.name}-${i}`} className={styles.file}>
                <span>
                  {file.name} <span className={styles.muted}>{formatFileSize(file.size)}</span>
                </span>
                <Button
                  variant="quiet"
                  aria-label={t('disputes.form.removeName', { name: file.name })}
                  onClick={() => onRemove(file)}
                >
                  {t('disputes.form.remove')}
                </Button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
