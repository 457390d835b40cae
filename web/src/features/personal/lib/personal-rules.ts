// The rules of the personal information form (spec sections 3 and 5). They
// mirror the server's (internal/portal/personal.go), which checks again.
// The full metadata, as the server's library has: the /min set accepts
// numbers the server refuses.
import { isValidPhoneNumber, parsePhoneNumberWithError } from 'libphonenumber-js/max';

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
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
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
    if (required) errors[field] = `${label} is required.`;
  } else if (v.length > 50) {
    errors[field] = `${label} must be at most 50 characters.`;
  } else if (!namePattern.test(v) || !/\p{L}/u.test(v)) {
    errors[field] = `${label} can only contain letters, spaces, hyphens, apostrophes and periods.`;
  }
}

function ssnProblem(ssn: string): string {
  if (!/^\d{9}$/.test(ssn)) return 'Enter the 9 digits of your SSN, like 123-45-6789.';
  const [area, group, serial] = [ssn.slice(0, 3), ssn.slice(3, 5), ssn.slice(5)];
  if (area === '000' || area === '666' || area.startsWith('9') || group === '00' || serial === '0000')
    return 'This is not a valid SSN. Check the number on your Social Security card.';
  return '';
}

function isRealDate(s: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]) ? d : null;
}

/** A phone and its dial code, as the server checks them; prefix is daytime or evening. */
function checkPhone(errors: Record<string, string>, prefix: string, label: string, dial: string, number: string, required: boolean) {
  if (!number.trim()) {
    if (required) errors[`${prefix}PhoneNumber`] = `${label} is required.`;
  } else if (!dialCodePattern.test((dial || '1').trim())) {
    errors[`${prefix}DialCode`] = 'Choose a dial code, like +1.';
  } else if (!validPhone(dial, number)) {
    errors[`${prefix}PhoneNumber`] = `Enter a valid phone number for dial code +${digits(dial || '1')}.`;
  }
}

/** The field messages of the form; empty when it may be saved. */
export function validatePersonal(v: PersonalValues, rules: PersonalRules): Record<string, string> {
  const errors: Record<string, string> = {};
  checkName(errors, 'firstName', 'First name', v.firstName, true);
  if (!v.noMiddleName && !v.middleName.trim()) errors.middleName = 'Middle name is required. If you have none, tick "No middle name".';
  else if (!v.noMiddleName) checkName(errors, 'middleName', 'Middle name', v.middleName, false);
  checkName(errors, 'lastName', 'Last name', v.lastName, true);
  checkName(errors, 'mothersMaidenName', "Mother's maiden name", v.mothersMaidenName, false);

  if (v.noSSN) {
    if (!v.identificationCountry) errors.identificationCountry = 'Choose the country that issued your identification number.';
    if (!v.countryIdentificationNumber.trim()) errors.countryIdentificationNumber = 'Identification number is required when you have no SSN.';
  } else {
    const ssn = digits(v.ssn);
    if (!ssn) {
      if (rules.requireSSN && !rules.ssnOnFile) errors.ssn = 'SSN is required. If you have none, tick "No SSN".';
    } else if (ssnProblem(ssn)) {
      errors.ssn = ssnProblem(ssn);
    } else if (!digits(v.confirmSSN)) {
      errors.confirmSSN = 'Type your SSN again to confirm it.';
    } else if (digits(v.confirmSSN) !== ssn) {
      errors.confirmSSN = 'The SSNs do not match.';
    }
  }

  const today = new Date(Date.UTC(rules.today.getFullYear(), rules.today.getMonth(), rules.today.getDate()));
  const dob = isRealDate(v.dob);
  if (!v.dob) errors.dob = 'Date of birth is required.';
  else if (!dob) errors.dob = 'Enter a real date of birth as YYYY-MM-DD, like 1990-04-25.';
  else if (dob >= today) errors.dob = 'Date of birth must be in the past.';
  else if (dob.getUTCFullYear() < 1900) errors.dob = 'Date of birth cannot be before 1900.';
  else {
    const fourteen = new Date(dob);
    fourteen.setUTCFullYear(dob.getUTCFullYear() + 14);
    if (fourteen > today) errors.dob = 'You must be at least 14 years old.';
    else if (!v.confirmDOB) errors.confirmDOB = 'Enter your date of birth again to confirm it.';
    else if (v.confirmDOB !== v.dob) errors.confirmDOB = 'The dates of birth do not match.';
  }

  checkPhone(errors, 'daytime', 'Daytime phone number', v.daytimeDialCode, v.daytimePhoneNumber, true);
  checkPhone(errors, 'evening', 'Evening phone number', v.eveningDialCode, v.eveningPhoneNumber, false);

  if (!v.noDriversLicenseNumber) {
    const n = v.driversLicenseNumber.trim();
    if (!n) errors.driversLicenseNumber = 'Driver\'s license number is required. If you have none, tick "No driver\'s license".';
    else if (n.length > 30 || !licensePattern.test(n))
      errors.driversLicenseNumber = "Enter the driver's license number as printed: letters, digits, spaces and dashes, at most 30 characters.";
    if (!v.driversLicenseState) errors.driversLicenseState = "Choose the state that issued your driver's license.";
  }
  if (v.drugZip.trim() && !zipPattern.test(v.drugZip.trim())) errors.drugZip = 'Enter a 5-digit ZIP code, like 94105 or 94105-1234.';

  v.licenses.forEach((l, i) => {
    if (!l.number.trim()) errors[`licenses.${i}.number`] = 'License number is required.';
    if (!l.regionId) errors[`licenses.${i}.regionId`] = 'Choose the state or province that issued the license.';
  });

  const m = v.primaryNotificationMethod;
  if (m.type === 'email' || m.type === 'both') {
    if (!m.email.trim()) errors['primaryNotificationMethod.email'] = 'E-mail address is required for e-mail notifications.';
    else if (!emailPattern.test(m.email.trim())) errors['primaryNotificationMethod.email'] = 'Enter a valid e-mail address, like name@example.com.';
  }
  if (m.type === 'text' || m.type === 'both') {
    if (!m.text.trim()) errors['primaryNotificationMethod.text'] = 'Mobile number is required for text notifications.';
    else if (!validPhone(v.daytimeDialCode, m.text)) errors['primaryNotificationMethod.text'] = `Enter a valid mobile number for dial code +${digits(v.daytimeDialCode || '1')}.`;
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
export function personalDefaults(snapshot: Record<string, unknown> | null | undefined, invitee: Invitee): PersonalValues {
  const s = (k: string) => (typeof snapshot?.[k] === 'string' ? (snapshot[k] as string) : '');
  const b = (k: string) => snapshot?.[k] === true;
  const notification = (snapshot?.primaryNotificationMethod ?? {}) as Partial<PersonalValues['primaryNotificationMethod']>;
  const daytimeDial = s('daytimeDialCode') || '1';
  const daytime = s('daytimePhoneNumber');
  const eveningDial = s('eveningDialCode') || daytimeDial;
  const sameAsDaytime = digits(s('eveningPhoneNumber')) === digits(daytime) && digits(eveningDial) === digits(daytimeDial);
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
    primaryNotificationMethod: { type: notification.type || 'email', email: notification.email || (invitee.email ?? ''), text: formatPhone(daytimeDial, notification.text || '') },
  };
}

/** What PUT /api/v2/user takes: phones with dial codes, a cleared suffix as "". */
export function toRequest(v: PersonalValues) {
  return { ...v, nameSuffix: v.nameSuffix ?? '', ssn: digits(v.ssn), confirmSSN: digits(v.confirmSSN) };
}
