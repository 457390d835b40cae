// Which documents apply depends on where the applicant lives and will work
// (spec section 5): a state, and the county where a notice depends on it.
import '@/features/legal/lib/messages';
import { useMemo } from 'react';
import { z } from 'zod/mini';
import { ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Fieldset } from '@/components/ui/fieldset';
import { Select } from '@/components/ui/select';
import { useAppForm } from '@/lib/form';
import { useFailedSave } from '@/lib/failed-save';
import type { County } from '@/lib/lookups';
import { useStates } from '@/lib/lookups';
import type { PlaceAnswer } from '../api/subject-location';
import styles from './legal-stepper.module.css';
import { t } from '@/lib/i18n';

/** A place as the form holds it: the county as the select's value ('' not chosen, '0' another county). */
type PlaceValues = { state: string; county: string; nonUs: boolean };
export type LocationValues = { location: { residency: PlaceValues; employment: PlaceValues } };
export type LocationAnswer = { residency: PlaceAnswer; employment?: PlaceAnswer };

/** The counties worth asking about in a state; none: the county is not asked. */
export type CountiesIn = (state: string) => County[];

const place = z.object({ state: z.string(), county: z.string(), nonUs: z.boolean() });

/**
 * Where the applicant lives is required; where they will work only when the
 * employer did not say, and even then may stay empty (not known yet). A
 * county is required wherever it is asked: "Another county" is an answer.
 */
export function locationSchema(countiesIn: CountiesIn) {
  const countyMissing = (p: PlaceValues) =>
    !p.nonUs && p.state !== '' && p.county === '' && countiesIn(p.state).length > 0;
  return z.object({ location: z.object({ residency: place, employment: place }) }).check(
    z.refine((v) => v.location.residency.nonUs || v.location.residency.state !== '', {
      path: ['location', 'residency', 'state'],
      message: t('legal.residency.chooseAState'),
    }),
    z.refine((v) => !countyMissing(v.location.residency), {
      path: ['location', 'residency', 'county'],
      message: t('legal.location.chooseYourCounty'),
    }),
    z.refine((v) => !countyMissing(v.location.employment), {
      path: ['location', 'employment', 'county'],
      message: t('legal.location.chooseTheCountyOfWork'),
    }),
  );
}

function answerOf(p: PlaceValues): PlaceAnswer {
  return p.nonUs
    ? { nonUs: true, state: '', county: 0 }
    : { nonUs: false, state: p.state, county: Number(p.county) || 0 };
}

type LocationFormProps = {
  countiesIn: CountiesIn;
  /** Ask where the applicant will work too: the employer did not say. */
  askEmployment: boolean;
  /** Saves the answer; a refusal (rejected promise) is shown on the form. */
  onSubmit: (location: LocationAnswer) => Promise<unknown>;
};

const emptyPlace: PlaceValues = { state: '', county: '', nonUs: false };

export function LocationForm({ countiesIn, askEmployment, onSubmit }: LocationFormProps) {
  const states = useStates();
  const schema = useMemo(() => locationSchema(countiesIn), [countiesIn]);
  const form = useAppForm<LocationValues>(schema, {
    defaultValues: { location: { residency: emptyPlace, employment: emptyPlace } },
  });
  const {
    register,
    handleSubmit,
    setValue,
    clearErrors,
    watch,
    formState: { errors, isSubmitting },
  } = form;
  const failed = useFailedSave(form);
  const [residency, employment] = watch(['location.residency', 'location.employment']);
  const ready = residency.nonUs || residency.state !== '';
  const submit = handleSubmit(async ({ location }) => {
    failed.clear();
    const work = location.employment;
    const answer: LocationAnswer = { residency: answerOf(location.residency) };
    if (askEmployment && (work.nonUs || work.state !== '')) answer.employment = answerOf(work);
    try {
      await onSubmit(answer);
    } catch (error) {
      failed.onServerError(error);
    }
  }, failed.onInvalid);

  /** State, county where it matters, and outside the US, of one of the two places. */
  const placeFields = (which: 'residency' | 'employment', values: PlaceValues) => {
    const words =
      which === 'residency'
        ? {
            state: t('legal.residency.state'),
            statePlaceholder: t('legal.residency.chooseYourState'),
            county: t('legal.location.county'),
            countyPlaceholder: t('legal.location.chooseYourCountyPlaceholder'),
            nonUs: t('legal.residency.iLiveOutsideTheUnited'),
          }
        : {
            state: t('legal.location.workState'),
            statePlaceholder: t('legal.location.chooseAState'),
            county: t('legal.location.workCounty'),
            countyPlaceholder: t('legal.location.chooseACounty'),
            nonUs: t('legal.location.iWillWorkOutsideTheUnited'),
          };
    const counties = values.nonUs || values.state === '' ? [] : countiesIn(values.state);
    const fieldErrors = errors.location?.[which];
    return (
      <>
        <Select
          label={words.state}
          className={styles.state}
          placeholder={words.statePlaceholder}
          // Where the applicant lives is their address's state; where they will work is no purpose of theirs.
          autoComplete={which === 'residency' ? 'address-level1' : 'off'}
          disabled={values.nonUs}
          error={fieldErrors?.state?.message}
          {...register(`location.${which}.state`, {
            // Another state's counties are another list: the county is asked again.
            onChange: () => {
              setValue(`location.${which}.county`, '');
              clearErrors(`location.${which}.county`);
            },
          })}
        >
          {(states.data ?? []).map((s) => (
            <option key={s.code} value={s.code}>
              {s.name}
            </option>
          ))}
        </Select>
        {counties.length > 0 ? (
          <Select
            label={words.county}
            hint={t('legal.location.countyHint')}
            className={styles.state}
            placeholder={words.countyPlaceholder}
            error={fieldErrors?.county?.message}
            {...register(`location.${which}.county`)}
          >
            {counties.map((c) => (
              <option key={c.id} value={String(c.id)}>
                {c.name}
              </option>
            ))}
            <option value="0">{t('legal.location.anotherCounty')}</option>
          </Select>
        ) : null}
        <Checkbox
          label={words.nonUs}
          error={fieldErrors?.nonUs?.message}
          // Ticking it answers the question: the state's and county's messages go.
          {...register(`location.${which}.nonUs`, {
            deps: [`location.${which}.state`, `location.${which}.county`],
          })}
        />
      </>
    );
  };

  return (
    <form
      ref={failed.formRef}
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
      <ErrorSummary key={failed.attempt} {...failed.summary} />
      {placeFields('residency', residency)}
      {askEmployment ? (
        <Fieldset legend={t('legal.location.whereWillYouWork')} hint={t('legal.location.whereWillYouWorkHint')}>
          {placeFields('employment', employment)}
        </Fieldset>
      ) : null}
      <div className={styles.actions}>
        <Button type="submit" disabled={!ready} loading={isSubmitting}>
          {t('legal.residency.continue')}
        </Button>
      </div>
    </form>
  );
}
