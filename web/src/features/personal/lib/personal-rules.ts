// The rules of the personal information form (spec sections 3 and 5). They
// mirror the server's (internal/portal/personal.go), which checks again.
// The full metadata, as the server's library has: the /min set accepts
// numbers the server refuses.
import '@/features/personal/lib/messages';
import { isValidPhoneNumber, parsePhoneNumberWithError } from 'libphonenumber-js/max';
import { missingPartsMessage } from '@/lib/date-parts';
import { t } from '@/lib/i18n';
import { EMAIL_ADDRESS } from '@/lib/email';

export type License = { number: string; regionId: number; regionName: string };

export type PersonalValues = {
  firstName: string;
  noMiddleName: boolean;
  middleName: string;
  lastName: string;
  mothersMaidenName: string;
  ssn: string;
  confirmSSN: string;
  noSSN: boolean;
  dob: string;
  confirmDOB: string;
  gender: string;
  nameSuffix: string;
  daytimeDialCode: string;
  daytimePhoneNumber: string;
  eveningDialCode: string;
  eveningPhoneNumber: string;
  identificationCountry: string;
  countryIdentificationNumber: string;
  driversLicenseNumber: string;
  noDriversLicenseNumber: boolean;
  driversLicenseState: string;
  drugZip: string;
  cdlRequired: boolean;
  licenses: License[];
  primaryNotificationMethod: { type: string; email: string; text: string };
};

export type PersonalRules = { requireSSN: boolean; ssnOnFile: boolean; today: Date };

// As the server: letters, marks, spaces, hyphens, straight and curly apostrophes, periods.
const namePattern = /^[\p{L}\p{M}' .’-]+$/u;
const dialCodePattern = /^\+?[1-9]\d{0,2}$/;
const zipPattern = /^\d{5}(-\d{4})?$/;
const licensePattern = /^[A-Za-z0-9 -]+$/;

const digits = (s: string) => s.replace(/\D/g, '');

export function validPhone(dialCode: string, number: string): boolean {
  const dial = digits(dialCode || '1');
  if (/[A-Za-z]/.test(number)) return false;
  try {
    return isValidPhoneNumber(`+${dial}${digits(number)}`);
  } catch {
    return false;
  }
}

/**
 * A saved phone as people write it: the server keeps digits only. US and
 * other +1 numbers in their national form, "(202) 456-1111"; others grouped
 * as in the international form without the "+code" (no trunk prefix, which
 * the server would take as part of the number). Unparseable input is kept.
 */
export function formatPhone(dialCode: string, number: string): string {
  const dial = digits(dialCode || '1');
  if (!number || /[A-Za-z]/.test(number)) return number;
  try {
    const phone = parsePhoneNumberWithError(`+${dial}${digits(number)}`);
    if (phone.countryCallingCode !== dial || !phone.isPossible()) return number;
    if (dial === '1') return phone.formatNational();
    return phone.formatInternational().replace(`+${dial}`, '').trim();
  } catch {
    return number;
  }
}

function checkName(errors: Record<string, string>, field: string, label: string, value: string, required: boolean) {
  const v = value.trim();
  if (!v) {
    if (required) errors[field] = t('personal.error.nameRequired', { label });
  } else if (v.length > 50) {
    errors[field] = t('personal.error.nameTooLong', { label });
  } else if (!namePattern.test(v) || !/\p{L}/u.test(v)) {
    errors[field] = t('personal.error.nameChars', { label });
  }
}

function ssnProblem(ssn: string): string {
  if (!/^\d{9}$/.test(ssn)) return t('personal.error.enterThe9DigitsOf');
  const [area, group, serial] = [ssn.slice(0, 3), ssn.slice(3, 5), ssn.slice(5)];
  if (area === '000' || area === '666' || area.startsWith('9') || group === '00' || serial === '0000')
    return t('personal.error.thisIsNotAValid');
  return '';
}

function isRealDate(s: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]) ? d : null;
}

/** A phone and its dial code, as the server checks them; prefix is daytime or evening. */
function checkPhone(
  errors: Record<string, string>,
  prefix: string,
  label: string,
  dial: string,
  number: string,
  required: boolean,
) {
  if (!number.trim()) {
    if (required) errors[`${prefix}PhoneNumber`] = t('personal.error.phoneRequired', { label });
  } else if (!dialCodePattern.test((dial || '1').trim())) {
    errors[`${prefix}DialCode`] = t('personal.error.chooseADialCodeLike');
  } else if (!validPhone(dial, number)) {
    errors[`${prefix}PhoneNumber`] = t('personal.error.phoneInvalid', { dial: digits(dial || '1') });
  }
}

/** The field messages of the form; empty when it may be saved. */
export function validatePersonal(v: PersonalValues, rules: PersonalRules): Record<string, string> {
  const errors: Record<string, string> = {};
  checkName(errors, 'firstName', t('personal.field.firstName'), v.firstName, true);
  if (!v.noMiddleName && !v.middleName.trim()) errors.middleName = t('personal.error.middleNameIsRequiredIf');
  else if (!v.noMiddleName) checkName(errors, 'middleName', t('personal.field.middleName'), v.middleName, false);
  checkName(errors, 'lastName', t('personal.field.lastName'), v.lastName, true);
  checkName(errors, 'mothersMaidenName', t('personal.field.mothersMaidenName'), v.mothersMaidenName, false);

  if (v.noSSN) {
    if (!v.identificationCountry) errors.identificationCountry = t('personal.error.chooseTheCountryThatIssued');
    if (!v.countryIdentificationNumber.trim())
      errors.countryIdentificationNumber = t('personal.error.identificationNumberIsRequiredWhen');
  } else {
    const ssn = digits(v.ssn);
    if (!ssn) {
      if (rules.requireSSN && !rules.ssnOnFile) errors.ssn = t('personal.error.ssnIsRequiredIfYou');
    } else if (ssnProblem(ssn)) {
      errors.ssn = ssnProblem(ssn);
    } else if (!digits(v.confirmSSN)) {
      errors.confirmSSN = t('personal.error.typeYourSsnAgainTo');
    } else if (digits(v.confirmSSN) !== ssn) {
      errors.confirmSSN = t('personal.error.theSsnsDoNotMatch');
    }
  }

  const today = new Date(Date.UTC(rules.today.getFullYear(), rules.today.getMonth(), rules.today.getDate()));
  const dob = isRealDate(v.dob);
  if (!v.dob) errors.dob = t('personal.error.dateOfBirthIsRequired');
  else if (!dob)
    errors.dob =
      missingPartsMessage(v.dob, 'date', t('personal.form.dateOfBirth')) ?? t('personal.error.enterARealDateOf');
  else if (dob >= today) errors.dob = t('personal.error.dateOfBirthMustBe');
  else if (dob.getUTCFullYear() < 1900) errors.dob = t('personal.error.dateOfBirthCannotBe');
  else {
    const fourteen = new Date(dob);
    fourteen.setUTCFullYear(dob.getUTCFullYear() + 14);
    if (fourteen > today) errors.dob = t('personal.error.youMustBeAtLeast');
    else if (!v.confirmDOB) errors.confirmDOB = t('personal.error.enterYourDateOfBirth');
    else if (v.confirmDOB !== v.dob) errors.confirmDOB = t('personal.error.theDatesOfBirthDo');
  }

  checkPhone(errors, 'daytime', t('personal.field.daytimePhoneNumber'), v.daytimeDialCode, v.daytimePhoneNumber, true);
  checkPhone(errors, 'evening', t('personal.field.eveningPhoneNumber'), v.eveningDialCode, v.eveningPhoneNumber, false);

  if (!v.noDriversLicenseNumber) {
    const n = v.driversLicenseNumber.trim();
    if (!n) errors.driversLicenseNumber = t('personal.error.driversLicenseRequired');
    else if (n.length > 30 || !licensePattern.test(n))
      errors.driversLicenseNumber = t('personal.error.enterTheDriversLicenseNumber');
    if (!v.driversLicenseState) errors.driversLicenseState = t('personal.error.chooseTheStateThatIssued');
  }
  if (v.drugZip.trim() && !zipPattern.test(v.drugZip.trim())) errors.drugZip = t('personal.error.enterA5DigitZip');

  v.licenses.forEach((l, i) => {
    if (!l.number.trim()) errors[`licenses.${i}.number`] = t('personal.error.licenseNumberIsRequired');
    if (!l.regionId) errors[`licenses.${i}.regionId`] = t('personal.error.chooseTheStateOrProvince');
  });

  const m = v.primaryNotificationMethod;
  if (m.type === 'email' || m.type === 'both') {
    if (!m.email.trim()) errors['primaryNotificationMethod.email'] = t('personal.error.eMailAddressIsRequired');
    else if (!EMAIL_ADDRESS.test(m.email.trim()))
      errors['primaryNotificationMethod.email'] = t('personal.error.enterAValidEMail');
  }
  if (m.type === 'text' || m.type === 'both') {
    if (!m.text.trim()) errors['primaryNotificationMethod.text'] = t('personal.error.mobileNumberIsRequiredFor');
    else if (!validPhone(v.daytimeDialCode, m.text))
      errors['primaryNotificationMethod.text'] = t('personal.error.mobileInvalid', {
        dial: digits(v.daytimeDialCode || '1'),
      });
  }
  return errors;
}

/** Who the applicant is before any personal information is saved: the invitation's names and e-mail. */
export type Invitee = { firstName?: string | null; lastName?: string | null; email?: string | null };

/**
 * The form filled from the saved snapshot; before the first save, names and
 * e-mail come from the invitation. The snapshot's evening phone falls back to
 * the daytime one (spec section 3): an evening phone equal to the daytime one
 * is that fallback, so the optional evening field stays empty rather than
 * being saved as a second copy of the daytime number. Phones are shown formatted.
 */
export function personalDefaults(
  snapshot: Record<string, unknown> | null | undefined,
  invitee: Invitee,
): PersonalValues {
  const s = (k: string) => (typeof snapshot?.[k] === 'string' ? (snapshot[k] as string) : '');
  const b = (k: string) => snapshot?.[k] === true;
  const notification = (snapshot?.primaryNotificationMethod ?? {}) as Partial<
    PersonalValues['primaryNotificationMethod']
  >;
  const daytimeDial = s('daytimeDialCode') || '1';
  const daytime = s('daytimePhoneNumber');
  const eveningDial = s('eveningDialCode') || daytimeDial;
  const sameAsDaytime =
    digits(s('eveningPhoneNumber')) === digits(daytime) && digits(eveningDial) === digits(daytimeDial);
  const evening = sameAsDaytime ? '' : s('eveningPhoneNumber');
  return {
    firstName: s('firstName') || (invitee.firstName ?? ''),
    noMiddleName: b('noMiddleFlag'),
    middleName: s('middleName'),
    lastName: s('lastName') || (invitee.lastName ?? ''),
    mothersMaidenName: s('mothersMaidenName'),
    ssn: '',
    confirmSSN: '',
    noSSN: b('noSsnFlag'),
    dob: s('dob'),
    confirmDOB: s('dob'),
    gender: s('gender'),
    nameSuffix: s('suffix'),
    daytimeDialCode: daytimeDial,
    daytimePhoneNumber: formatPhone(daytimeDial, daytime),
    eveningDialCode: eveningDial,
    eveningPhoneNumber: formatPhone(eveningDial, evening),
    identificationCountry: s('identificationCountry'),
    countryIdentificationNumber: s('countryIdentificationNumber'),
    driversLicenseNumber: s('driversLicense'),
    noDriversLicenseNumber: b('noDriversLicenseFlag'),
    driversLicenseState: s('driversLicenseState'),
    drugZip: s('drugZip'),
    cdlRequired: b('cdlRequired'),
    licenses: Array.isArray(snapshot?.licenses) ? (snapshot.licenses as License[]) : [],
    primaryNotificationMethod: {
      type: notification.type || 'email',
      email: notification.email || (invitee.email ?? ''),
      text: formatPhone(daytimeDial, notification.text || ''),
    },
  };
}

/** What PUT /api/v2/user takes: phones with dial codes, a cleared suffix as "". */
export function toRequest(v: PersonalValues) {
  return { ...v, nameSuffix: v.nameSuffix ?? '', ssn: digits(v.ssn), confirmSSN: digits(v.confirmSSN) };
}
