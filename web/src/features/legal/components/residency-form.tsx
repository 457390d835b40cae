// Which documents apply depends on where the applicant lives (spec section 5).
import '@/features/legal/lib/messages';
import { useRef, useState } from 'react';
import { z } from 'zod/mini';
import { ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Select } from '@/components/ui/select';
import { applyServerErrors, useAppForm, type ServerErrors } from '@/lib/form';
import { useStates } from '@/lib/lookups';
import styles from './legal-stepper.module.css';
import { t } from '@/lib/i18n';

export type Residency = { nonUs: boolean; state: string };

/** A state, or outside the United States. */
export const residencySchema = z
  .object({ state: z.string(), nonUs: z.boolean() })
  .check(z.refine((r) => r.nonUs || r.state !== '', { path: ['state'], message: t('legal.residency.chooseAState') }));

type ResidencyFormProps = {
  /** Saves the answer; a refusal (rejected promise) is shown on the form. */
  onSubmit: (residency: Residency) => Promise<unknown>;
};

export function ResidencyForm({ onSubmit }: ResidencyFormProps) {
  const states = useStates();
  const formRef = useRef<HTMLFormElement>(null);
  const [server, setServer] = useState<ServerErrors>({ fields: [], messages: [] });
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useAppForm<Residency>(residencySchema, { defaultValues: { state: '', nonUs: false } });
  const [state, nonUs] = watch(['state', 'nonUs']);
  const ready = nonUs || state !== '';
  const submit = handleSubmit(async (residency) => {
    setServer({ fields: [], messages: [] });
    try {
      await onSubmit({ nonUs: residency.nonUs, state: residency.nonUs ? '' : residency.state });
    } catch (error) {
      setServer(applyServerErrors(error, setError, formRef.current));
    }
  });
  return (
    <form
      ref={formRef}
      className={styles.form}
      aria-labelledby="residency-heading"
      noValidate
      onSubmit={(event) => void submit(event)}
    >
      {/* Below the wizard's h2 (the setup step). */}
      <h3 id="residency-heading" className={styles.heading}>
        {t('legal.residency.whereDoYouLive')}
      </h3>
      <p className={styles.intro}>{t('legal.residency.someLawsGiveYouExtra')}</p>
      <ErrorSummary messages={server.messages} fields={server.fields} focusOnMount={server.fields.length === 0} />
      <Select
        label={t('legal.residency.state')}
        className={styles.state}
        placeholder={t('legal.residency.chooseYourState')}
        disabled={nonUs}
        error={errors.state?.message}
        {...register('state')}
      >
        {(states.data ?? []).map((s) => (
          <option key={s.code} value={s.code}>
            {s.name}
          </option>
        ))}
      </Select>
      <Checkbox
        label={t('legal.residency.iLiveOutsideTheUnited')}
        error={errors.nonUs?.message}
        // Ticking it answers the question: the state's message goes.
        {...register('nonUs', { deps: ['state'] })}
      />
      <div className={styles.actions}>
        <Button type="submit" disabled={!ready} loading={isSubmitting}>
          {t('legal.residency.continue')}
        </Button>
      </div>
    </form>
  );
}
