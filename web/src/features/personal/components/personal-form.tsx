// The personal information form (spec section 3), used by the setup wizard's
// last step and by /personal.
import '@/features/personal/lib/messages';
import { useEffect, useId, useMemo, useRef, useState, type ComponentProps } from 'react';
import { useFieldArray, useForm, type FieldErrors, type Resolver } from 'react-hook-form';
import { ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { errorMessageOf } from '@/lib/api-client';
import { raiseSsnMismatchFrom } from '@/lib/app-events';
import { storeUserPayload } from '@/lib/auth';
import { applyServerErrors, type ServerErrors } from '@/lib/form-errors';
import { notify } from '@/lib/notifications';
import { useCompanySettings, useCurrentUser } from '@/lib/current-user';
import type { UserPayload } from '@/types/api';
import { useCountries, useGenders, useStates, useSuffixes } from '@/lib/lookups';
import { savePersonalInfo } from '../api/personal-api';
import { clearDraft, loadDraft, saveDraft } from '../lib/personal-draft';
import { personalDefaults, validatePersonal, type PersonalValues } from '../lib/personal-rules';
import styles from './personal-form.module.css';
import { t } from '@/lib/i18n';

export const personalMessages = {
  saved: t('errors.personal.saved'),
  failed: t('errors.personal.saveFailed'),
  /** What the setup wizard's step list says; the form itself says what is wrong, once, next to each field. */
  needsAttention: t('personal.form.needsAttention'),
} as const;

type PersonalFormProps = {
  onSaved?: (payload: UserPayload) => void;
  /** Called with the message shown when saving fails. */
  onFailed?: (message: string) => void;
  submitLabel?: string;
};

/**
 * The form, once its lookups are there: a select filled before its options
 * exist shows nothing chosen, and tabbing through it would then replace the
 * saved value with an empty one.
 */
export function PersonalForm(props: PersonalFormProps) {
  const lookups = [useGenders(), useSuffixes(), useCountries(), useStates()];
  const failed = lookups.find((l) => l.isError);
  if (failed) {
    return (
      <div role="alert" className={styles.form}>
        <p>{t('errors.lookup', { reason: errorMessageOf(failed.error) })}</p>
        <Button variant="secondary" onClick={() => lookups.forEach((l) => l.isError && void l.refetch())}>
          {t('common.tryAgain')}
        </Button>
      </div>
    );
  }
  if (lookups.some((l) => !l.data)) return <p role="status">{t('personal.form.loading')}</p>;
  return <PersonalFields {...props} />;
}

/** Turns "a.b.0.c" messages into react-hook-form's nested errors. */
function nestedErrors(flat: Record<string, string>): FieldErrors<PersonalValues> {
  const out: Record<string, unknown> = {};
  for (const [path, message] of Object.entries(flat)) {
    const keys = path.split('.');
    let node = out;
    keys.slice(0, -1).forEach((k) => {
      node[k] = (node[k] as Record<string, unknown>) ?? {};
      node = node[k] as Record<string, unknown>;
    });
    node[keys[keys.length - 1]] = { type: 'validate', message };
  }
  return out as FieldErrors<PersonalValues>;
}

function PersonalFields({ onSaved, onFailed, submitLabel = t('personal.form.save') }: PersonalFormProps) {
  const user = useCurrentUser()?.subject;
  const settings = useCompanySettings();
  const snapshot = user?.personalInformation ?? null;
  const rules = useMemo(
    () => ({
      requireSSN: settings?.preferences.company_require_ssn ?? false,
      ssnOnFile: Boolean(snapshot?.ssnLastFour),
      today: new Date(),
    }),
    [settings, snapshot],
  );
  const resolver: Resolver<PersonalValues> = async (values) => {
    const errors = validatePersonal(values, rules);
    return Object.keys(errors).length ? { values: {}, errors: nestedErrors(errors) } : { values, errors: {} };
  };
  const defaults = useMemo(
    () => ({
      ...personalDefaults(snapshot, { firstName: user?.firstName, lastName: user?.lastName, email: user?.email }),
      ...(loadDraft() ?? {}),
    }),
    // The form is filled once; later snapshots come from this form itself.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  const form = useForm<PersonalValues>({ resolver, mode: 'onTouched', defaultValues: defaults });
  const { register, handleSubmit, watch, setError, formState } = form;
  const { errors, isSubmitting } = formState;
  const licenses = useFieldArray({ control: form.control, name: 'licenses' });
  const genders = useGenders();
  const suffixes = useSuffixes();
  const countries = useCountries();
  const states = useStates();

  useEffect(() => {
    const subscription = watch((values) => saveDraft(values as PersonalValues));
    return () => subscription.unsubscribe();
  }, [watch]);

  const noMiddleName = watch('noMiddleName');
  const noSSN = watch('noSSN');
  const noLicense = watch('noDriversLicenseNumber');
  const notifyBy = watch('primaryNotificationMethod.type');

  const formRef = useRef<HTMLFormElement>(null);
  // The last failed save: the fields the server refused (linked from the summary) and its other messages.
  const [refused, setRefused] = useState<ServerErrors>({ fields: [], messages: [] });

  const onSubmit = handleSubmit(async (values) => {
    setRefused({ fields: [], messages: [] });
    try {
      const payload = await savePersonalInfo(values);
      await storeUserPayload(payload);
      clearDraft();
      notify(personalMessages.saved, 'success');
      onSaved?.(payload);
    } catch (error) {
      // Each message once: on its field (focused, first in page order), or above the form when no shown field fits.
      const result = applyServerErrors(error, setError, formRef.current);
      setRefused({ fields: result.fields, messages: result.messages.map((m) => `${personalMessages.failed}: ${m}`) });
      raiseSsnMismatchFrom(error);
      onFailed?.(personalMessages.needsAttention);
    }
  });

  const err = (path: string) => {
    let node: unknown = errors;
    for (const k of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[k];
    return (node as { message?: string } | undefined)?.message;
  };

  // A field leaves the summary once its message is gone (the applicant changed it).
  const stillRefused = refused.fields.filter((f) => err(f.name));

  return (
    <form
      ref={formRef}
      className={styles.form}
      onSubmit={onSubmit}
      noValidate
      aria-label={t('personal.form.personalInformation')}
    >
      <ErrorSummary messages={refused.messages} fields={stillRefused} focusOnMount={refused.fields.length === 0} />
      <fieldset className={styles.group}>
        <legend>{t('personal.form.yourName')}</legend>
        <TextField
          label={t('personal.form.firstName')}
          autoComplete="given-name"
          error={err('firstName')}
          {...register('firstName')}
        />
        <TextField
          label={t('personal.form.middleName')}
          autoComplete="additional-name"
          disabled={noMiddleName}
          error={err('middleName')}
          {...register('middleName')}
        />
        <Check label={t('personal.form.noMiddleName')} {...register('noMiddleName')} />
        <TextField
          label={t('personal.form.lastName')}
          autoComplete="family-name"
          error={err('lastName')}
          {...register('lastName')}
        />
        <Select label={t('personal.form.suffixOptional')} error={err('nameSuffix')} {...register('nameSuffix')}>
          <option value="">{t('personal.form.none')}</option>
          {(suffixes.data ?? []).map((s) => (
            <option key={s.code} value={s.code}>
              {s.name}
            </option>
          ))}
        </Select>
        <TextField
          label={t('personal.form.mothersMaidenNameOptional')}
          error={err('mothersMaidenName')}
          {...register('mothersMaidenName')}
        />
      </fieldset>

      <fieldset className={styles.group}>
        <legend>{t('personal.form.identity')}</legend>
        {snapshot?.ssnLastFour && !noSSN ? (
          <p className={styles.note}>
            SSN on file ending in {String(snapshot.ssnLastFour)}. Leave the SSN fields empty to keep it, or type a new
            one.
          </p>
        ) : null}
        <TextField
          label={t('personal.form.socialSecurityNumber')}
          inputMode="numeric"
          autoComplete="off"
          disabled={noSSN}
          error={err('ssn')}
          {...register('ssn')}
        />
        <TextField
          label={t('personal.form.confirmSocialSecurityNumber')}
          inputMode="numeric"
          autoComplete="off"
          disabled={noSSN}
          error={err('confirmSSN')}
          {...register('confirmSSN')}
        />
        <Check label={t('personal.form.noSsnIDoNot')} {...register('noSSN')} />
        {noSSN ? (
          <>
            <Select
              label={t('personal.form.countryThatIssuedYourIdentification')}
              error={err('identificationCountry')}
              {...register('identificationCountry')}
            >
              <option value="">{t('personal.form.chooseACountry')}</option>
              {(countries.data ?? []).map((c) => (
                <option key={c.countryCode} value={c.countryCode}>
                  {c.countryName}
                </option>
              ))}
            </Select>
            <TextField
              label={t('personal.form.identificationNumber')}
              error={err('countryIdentificationNumber')}
              {...register('countryIdentificationNumber')}
            />
          </>
        ) : null}
        <TextField
          label={t('personal.form.dateOfBirth')}
          type="date"
          autoComplete="bday"
          error={err('dob')}
          {...register('dob')}
        />
        <TextField
          label={t('personal.form.confirmDateOfBirth')}
          type="date"
          error={err('confirmDOB')}
          {...register('confirmDOB')}
        />
        <Select label={t('personal.form.genderOptional')} error={err('gender')} {...register('gender')}>
          <option value="">{t('personal.form.choose')}</option>
          {(genders.data ?? []).map((g) => (
            <option key={g.code} value={g.code}>
              {g.name}
            </option>
          ))}
        </Select>
      </fieldset>

      <fieldset className={styles.group}>
        <legend>{t('personal.form.phoneNumbers')}</legend>
        <div className={styles.phone}>
          <TextField
            label={t('personal.form.daytimeDialCode')}
            inputMode="numeric"
            className={styles.dial}
            error={err('daytimeDialCode')}
            {...register('daytimeDialCode')}
          />
          <TextField
            label={t('personal.form.daytimePhoneNumber')}
            type="tel"
            autoComplete="tel-national"
            error={err('daytimePhoneNumber')}
            {...register('daytimePhoneNumber')}
          />
        </div>
        <div className={styles.phone}>
          <TextField
            label={t('personal.form.eveningDialCode')}
            inputMode="numeric"
            className={styles.dial}
            error={err('eveningDialCode')}
            {...register('eveningDialCode')}
          />
          <TextField
            label={t('personal.form.eveningPhoneNumberOptional')}
            type="tel"
            error={err('eveningPhoneNumber')}
            {...register('eveningPhoneNumber')}
          />
        </div>
      </fieldset>

      <fieldset className={styles.group}>
        <legend>{t('personal.form.driversLicense')}</legend>
        <TextField
          label={t('personal.form.driversLicenseNumber')}
          disabled={noLicense}
          error={err('driversLicenseNumber')}
          {...register('driversLicenseNumber')}
        />
        <Select
          label={t('personal.form.stateThatIssuedIt')}
          disabled={noLicense}
          error={err('driversLicenseState')}
          {...register('driversLicenseState')}
        >
          <option value="">{t('personal.form.chooseAState')}</option>
          {(states.data ?? []).map((s) => (
            <option key={s.code} value={s.code}>
              {s.name}
            </option>
          ))}
        </Select>
        <Check label={t('personal.form.noDriversLicense')} {...register('noDriversLicenseNumber')} />
        <Check label={t('personal.form.myJobRequiresACommercial')} {...register('cdlRequired')} />
      </fieldset>

      <fieldset className={styles.group}>
        <legend>{t('personal.form.other')}</legend>
        <TextField
          label={t('personal.form.zipCodeForADrug')}
          inputMode="numeric"
          autoComplete="postal-code"
          error={err('drugZip')}
          {...register('drugZip')}
        />
        {licenses.fields.map((field, i) => (
          <div key={field.id} className={styles.license}>
            <TextField
              label={t('personal.form.licenseNumber', { n: i + 1 })}
              error={err(`licenses.${i}.number`)}
              {...register(`licenses.${i}.number` as const)}
            />
            <Select
              label={t('personal.form.licenseState', { n: i + 1 })}
              error={err(`licenses.${i}.regionId`)}
              {...register(`licenses.${i}.regionId` as const, { valueAsNumber: true })}
            >
              <option value="0">{t('personal.form.chooseAState')}</option>
              {(states.data ?? []).map((s) => (
                <option key={s.code} value={s.id}>
                  {s.name}
                </option>
              ))}
            </Select>
            <Button variant="link" onClick={() => licenses.remove(i)}>
              {t('personal.form.removeLicense', { n: i + 1 })}
            </Button>
          </div>
        ))}
        <Button variant="secondary" onClick={() => licenses.append({ number: '', regionId: 0, regionName: '' })}>
          {t('personal.form.addLicense')}
        </Button>
      </fieldset>

      <fieldset className={styles.group}>
        <legend>{t('personal.form.howShouldWeReachYou')}</legend>
        <Select
          label={t('personal.form.notifyMeBy')}
          error={err('primaryNotificationMethod.type')}
          {...register('primaryNotificationMethod.type')}
        >
          <option value="email">{t('personal.form.eMail')}</option>
          <option value="text">{t('personal.form.textMessage')}</option>
          <option value="both">{t('personal.form.eMailAndTextMessage')}</option>
        </Select>
        {notifyBy !== 'text' ? (
          <TextField
            label={t('personal.form.eMailAddress')}
            type="email"
            autoComplete="email"
            error={err('primaryNotificationMethod.email')}
            {...register('primaryNotificationMethod.email')}
          />
        ) : null}
        {notifyBy !== 'email' ? (
          <TextField
            label={t('personal.form.mobileNumberForTextMessages')}
            type="tel"
            error={err('primaryNotificationMethod.text')}
            {...register('primaryNotificationMethod.text')}
          />
        ) : null}
      </fieldset>

      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? t('personal.form.saving') : submitLabel}
      </Button>
    </form>
  );
}

function Check({ label, ...input }: ComponentProps<'input'> & { label: string }) {
  const id = useId();
  return (
    <div className={styles.check}>
      <input id={id} type="checkbox" {...input} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

function Select({ label, error, children, ...select }: ComponentProps<'select'> & { label: string; error?: string }) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      <select
        id={id}
        className={styles.select}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...select}
      >
        {children}
      </select>
      {error ? (
        <p id={`${id}-error`} className={styles.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
