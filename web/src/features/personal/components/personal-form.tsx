// The personal information form (spec section 3), used by the setup wizard's
// last step and by /personal.
import '@/features/personal/lib/messages';
import { useMemo } from 'react';
import { useFieldArray } from 'react-hook-form';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { DateField } from '@/components/ui/date-field';
import { Fieldset } from '@/components/ui/fieldset';
import { RadioGroup } from '@/components/ui/radio-group';
import { Select } from '@/components/ui/select';
import { SsnField } from '@/components/ui/ssn-field';
import { TextField } from '@/components/ui/text-field';
import { errorMessageOf } from '@/lib/api-client';
import { raiseSsnMismatchFrom } from '@/lib/app-events';
import { DraftStatus } from '@/components/draft-status/draft-status';
import { useAppForm } from '@/lib/form';
import { useServerDraft } from '@/lib/server-draft';
import { errorAt, useFailedSave } from '@/lib/failed-save';
import { useKeepFocusOnPress } from '@/lib/keep-focus';
import { notify } from '@/lib/notifications';
import { setPersonalInformation, useCompanySettings, useCurrentUser } from '@/lib/current-user';
import { useCountries, useGenders, useStates, useSuffixes } from '@/lib/lookups';
import { savePersonalInfo } from '../api/personal-api';
import { personalDefaults, type PersonalValues } from '../lib/personal-rules';
import { personalSchema } from '../lib/personal-schema';
import styles from './personal-form.module.css';
import { t } from '@/lib/i18n';
import { messagesOf } from '@/lib/messages-of';

export const personalMessages = messagesOf({
  saved: 'errors.personal.saved',
  failed: 'errors.personal.saveFailed',
  /** What the setup wizard's step list says; the form itself says what is wrong, once, next to each field. */
  needsAttention: 'personal.form.needsAttention',
});

type PersonalFormProps = {
  onSaved?: () => void;
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
      <Alert>
        <p>{t('errors.lookup', { reason: errorMessageOf(failed.error) })}</p>
        <Button variant="secondary" onClick={() => lookups.forEach((l) => l.isError && void l.refetch())}>
          {t('common.tryAgain')}
        </Button>
      </Alert>
    );
  }
  if (lookups.some((l) => !l.data)) return <p role="status">{t('personal.form.loading')}</p>;
  return <PersonalFields {...props} />;
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
  const schema = useMemo(() => personalSchema(rules), [rules]);
  const defaults = useMemo(
    () => personalDefaults(snapshot, { firstName: user?.firstName, lastName: user?.lastName, email: user?.email }),
    // The form is filled once; later snapshots come from this form itself.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  // A failed submit focuses the error summary (which links to each field), not the first field.
  const form = useAppForm(schema, { defaultValues: defaults, shouldFocusError: false });
  const { register, handleSubmit, watch, formState } = form;
  const { errors, isSubmitting } = formState;
  const licenses = useFieldArray({ control: form.control, name: 'licenses' });
  const genders = useGenders();
  const suffixes = useSuffixes();
  const countries = useCountries();
  const states = useStates();

  // Typed but not submitted: kept on the server (sealed there, the SSN included), restored on any device.
  const draft = useServerDraft<PersonalValues>('personal', form);

  const noMiddleName = watch('noMiddleName');
  const noSSN = watch('noSSN');
  const noLicense = watch('noDriversLicenseNumber');
  const notifyBy = watch('primaryNotificationMethod.type');

  const failed = useFailedSave(form);
  // A button pressed right after typing must not lose its click to the field's message appearing.
  useKeepFocusOnPress(failed.formRef);

  const onSubmit = handleSubmit(async (values) => {
    failed.clear();
    draft.pause();
    try {
      const saved = await savePersonalInfo(values);
      // The save deleted the draft on the server.
      draft.submitted(values);
      await setPersonalInformation(saved.subject.personalInformation);
      notify(personalMessages.saved, 'success');
      onSaved?.();
    } catch (error) {
      // Each message once: on its field (focused, first in page order), or above the form when no shown field fits.
      draft.resume();
      failed.onServerError(error, { failure: personalMessages.failed });
      raiseSsnMismatchFrom(error);
      onFailed?.(personalMessages.needsAttention);
    }
  }, failed.onInvalid);

  const err = (path: string) => errorAt(errors, path);

  return (
    <form
      ref={failed.formRef}
      className={styles.form}
      onSubmit={onSubmit}
      noValidate
      aria-label={t('personal.form.personalInformation')}
    >
      <ErrorSummary key={failed.attempt} {...failed.summary} />
      <DraftStatus draft={draft} />
      <Fieldset legend={t('personal.form.yourName')}>
        <div className={styles.fields}>
          <TextField
            label={t('personal.form.firstName')}
            autoComplete="given-name"
            error={err('firstName')}
            {...register('firstName')}
          />
          <div className={styles.stack}>
            <TextField
              label={t('personal.form.middleName')}
              autoComplete="additional-name"
              disabled={noMiddleName}
              error={err('middleName')}
              {...register('middleName')}
            />
            <Checkbox label={t('personal.form.noMiddleName')} {...register('noMiddleName')} />
          </div>
          <TextField
            label={t('personal.form.lastName')}
            autoComplete="family-name"
            error={err('lastName')}
            {...register('lastName')}
          />
          <Select
            label={t('personal.form.suffix')}
            optional
            placeholder={t('personal.form.none')}
            autoComplete="honorific-suffix"
            error={err('nameSuffix')}
            {...register('nameSuffix')}
          >
            {(suffixes.data ?? []).map((s) => (
              <option key={s.code} value={s.code}>
                {s.name}
              </option>
            ))}
          </Select>
          <TextField
            label={t('personal.form.mothersMaidenName')}
            optional
            error={err('mothersMaidenName')}
            {...register('mothersMaidenName')}
          />
        </div>
      </Fieldset>

      <Fieldset legend={t('personal.form.identity')}>
        <div className={styles.fields}>
          <SsnField
            label={t('personal.form.socialSecurityNumber')}
            hint={
              snapshot?.ssnLastFour && !noSSN
                ? t('personal.form.ssnOnFile', { lastFour: String(snapshot.ssnLastFour) })
                : undefined
            }
            disabled={noSSN}
            error={err('ssn')}
            {...register('ssn')}
          />
          <SsnField
            label={t('personal.form.confirmSocialSecurityNumber')}
            toggleSubject={t('personal.form.confirmSsnToggleSubject')}
            disabled={noSSN}
            error={err('confirmSSN')}
            {...register('confirmSSN')}
          />
          <Checkbox className={styles.wide} label={t('personal.form.noSsnIDoNot')} {...register('noSSN')} />
          {noSSN ? (
            <>
              <Select
                label={t('personal.form.countryThatIssuedYourIdentification')}
                placeholder={t('personal.form.chooseACountry')}
                error={err('identificationCountry')}
                {...register('identificationCountry')}
              >
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
          <DateField
            label={t('personal.form.dateOfBirth')}
            autoComplete="bday"
            error={err('dob')}
            {...register('dob')}
          />
          <DateField
            label={t('personal.form.confirmDateOfBirth')}
            autoComplete="bday"
            error={err('confirmDOB')}
            {...register('confirmDOB')}
          />
          <Select
            label={t('personal.form.gender')}
            optional
            placeholder={t('personal.form.choose')}
            autoComplete="sex"
            error={err('gender')}
            {...register('gender')}
          >
            {(genders.data ?? []).map((g) => (
              <option key={g.code} value={g.code}>
                {g.name}
              </option>
            ))}
          </Select>
        </div>
      </Fieldset>

      <Fieldset legend={t('personal.form.phoneNumbers')}>
        <div className={styles.fields}>
          <div className={styles.phone}>
            <TextField
              label={t('personal.form.daytimeDialCode')}
              inputMode="numeric"
              autoComplete="tel-country-code"
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
              autoComplete="tel-country-code"
              className={styles.dial}
              error={err('eveningDialCode')}
              {...register('eveningDialCode')}
            />
            <TextField
              label={t('personal.form.eveningPhoneNumber')}
              optional
              type="tel"
              autoComplete="tel-national"
              error={err('eveningPhoneNumber')}
              {...register('eveningPhoneNumber')}
            />
          </div>
        </div>
      </Fieldset>

      <Fieldset legend={t('personal.form.driversLicense')}>
        <div className={styles.fields}>
          <TextField
            label={t('personal.form.driversLicenseNumber')}
            disabled={noLicense}
            error={err('driversLicenseNumber')}
            {...register('driversLicenseNumber')}
          />
          <Select
            label={t('personal.form.stateThatIssuedIt')}
            placeholder={t('personal.form.chooseAState')}
            disabled={noLicense}
            error={err('driversLicenseState')}
            {...register('driversLicenseState')}
          >
            {(states.data ?? []).map((s) => (
              <option key={s.code} value={s.code}>
                {s.name}
              </option>
            ))}
          </Select>
          <Checkbox
            className={styles.wide}
            label={t('personal.form.noDriversLicense')}
            {...register('noDriversLicenseNumber')}
          />
          <Checkbox
            className={styles.wide}
            label={t('personal.form.myJobRequiresACommercial')}
            {...register('cdlRequired')}
          />
        </div>
      </Fieldset>

      <Fieldset legend={t('personal.form.other')}>
        <div className={styles.fields}>
          <TextField
            label={t('personal.form.zipCodeForADrug')}
            optional
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
              <div>
                <Button variant="link" onClick={() => licenses.remove(i)}>
                  {t('personal.form.removeLicense', { n: i + 1 })}
                </Button>
              </div>
            </div>
          ))}
          <div className={styles.wide}>
            <Button variant="secondary" onClick={() => licenses.append({ number: '', regionId: 0, regionName: '' })}>
              {t('personal.form.addLicense')}
            </Button>
          </div>
        </div>
      </Fieldset>

      <Fieldset legend={t('personal.form.howShouldWeReachYou')}>
        <div className={styles.fields}>
          <RadioGroup
            className={styles.wide}
            legend={t('personal.form.notifyMeBy')}
            options={[
              { value: 'email', label: t('personal.form.eMail') },
              { value: 'text', label: t('personal.form.textMessage') },
              { value: 'both', label: t('personal.form.eMailAndTextMessage') },
            ]}
            error={err('primaryNotificationMethod.type')}
            {...register('primaryNotificationMethod.type')}
          />
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
              autoComplete="tel"
              error={err('primaryNotificationMethod.text')}
              {...register('primaryNotificationMethod.text')}
            />
          ) : null}
        </div>
      </Fieldset>

      <Button type="submit" loading={isSubmitting} className={styles.submit}>
        {isSubmitting ? t('personal.form.saving') : submitLabel}
      </Button>
    </form>
  );
}
