// The identity part of a signing form, shared by the setup's legal steps and the per-employer DOT
// release dialog: the typed names, and for a DOT release the last four SSN digits or, without an SSN,
// the identification that stands for it.
import '@/features/legal/lib/messages';
import type { ChangeEvent, FocusEvent, Ref } from 'react';
import { Checkbox } from '@/components/ui/checkbox';
import { SsnField } from '@/components/ui/ssn-field';
import { TextField } from '@/components/ui/text-field';
import { t } from '@/lib/i18n';
import styles from './legal-stepper.module.css';

/** What a form hands each control: register() with an optional sanitizer of what is typed. */
export type FieldRegistration = (
  name: string,
  sanitize?: (value: string) => string,
) => {
  name: string;
  ref: Ref<HTMLInputElement>;
  onChange: (event: ChangeEvent<HTMLInputElement>) => unknown;
  onBlur: (event: FocusEvent<HTMLInputElement>) => unknown;
};

type Props = {
  field: FieldRegistration;
  errorOf: (name: string) => string | undefined;
  /** The fields start from what the portal knows: each says so, for the applicant to check. */
  prefilled?: boolean;
};

export function NameFields({ field, errorOf, prefilled }: Props) {
  const hint = prefilled ? t('legal.stepper.filledFromInvitation') : undefined;
  return (
    <div className={styles.row}>
      <TextField
        label={t('legal.stepper.nameLabelFirst')}
        hint={hint}
        autoComplete="given-name"
        error={errorOf('firstName')}
        {...field('firstName')}
      />
      <TextField
        label={t('legal.stepper.nameLabelLast')}
        hint={hint}
        autoComplete="family-name"
        error={errorOf('lastName')}
        {...field('lastName')}
      />
    </div>
  );
}

type IdentityProps = Omit<Props, 'prefilled'> & {
  noSSN: boolean;
  /** Which parts start from the personal information saved. */
  prefilled?: { lastFourSSN: boolean; identification: boolean };
};

export function DotIdentityFields({ field, errorOf, noSSN, prefilled }: IdentityProps) {
  const hint = t('legal.stepper.filledFromProfile');
  return (
    <>
      <Checkbox label={t('legal.stepper.iDoNotHaveA')} {...field('noSSN')} />
      {noSSN ? (
        <div className={styles.row}>
          <TextField
            label={t('legal.stepper.countryThatIssuedYourIdentification')}
            hint={prefilled?.identification ? hint : undefined}
            error={errorOf('identificationCountry')}
            {...field('identificationCountry')}
          />
          <TextField
            label={t('legal.stepper.identificationNumber')}
            hint={prefilled?.identification ? hint : undefined}
            error={errorOf('identificationNumber')}
            {...field('identificationNumber')}
          />
        </div>
      ) : (
        <SsnField
          label={t('legal.stepper.lastFourDigitsOfYour')}
          hint={prefilled?.lastFourSSN ? hint : undefined}
          className={styles.lastFour}
          maxLength={4}
          error={errorOf('lastFourSSN')}
          {...field('lastFourSSN', (value) => value.replace(/\D/g, ''))}
        />
      )}
    </>
  );
}
