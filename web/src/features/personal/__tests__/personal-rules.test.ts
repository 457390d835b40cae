import { describe, expect, it } from 'vitest';
import {
  formatPhone,
  personalDefaults,
  toRequest,
  validatePersonal,
  type PersonalRules,
  type PersonalValues,
} from '../lib/personal-rules';

const today = new Date(2026, 10, 22);
const rules: PersonalRules = { requireSSN: false, ssnOnFile: false, today };

// A form a person could save: every required field filled in correctly.
const valid: PersonalValues = {
  firstName: 'Riley',
  noMiddleName: false,
  middleName: 'Ann',
  lastName: "O'Neil-Stone",
  mothersMaidenName: '',
  ssn: '123-45-6789',
  confirmSSN: '123456789',
  noSSN: false,
  dob: '1990-04-12',
  confirmDOB: '1990-04-12',
  gender: '',
  nameSuffix: '',
  daytimeDialCode: '1',
  daytimePhoneNumber: '(202) 456-1111',
  eveningDialCode: '1',
  eveningPhoneNumber: '',
  identificationCountry: '',
  countryIdentificationNumber: '',
  driversLicenseNumber: 'D765-4321',
  noDriversLicenseNumber: false,
  driversLicenseState: 'US-CA',
  drugZip: '',
  cdlRequired: false,
  licenses: [],
  primaryNotificationMethod: { type: 'email', email: 'riley@example.com', text: '' },
};

type Case = [
  name: string,
  change: Partial<PersonalValues>,
  field: string | null,
  message?: RegExp,
  rules?: Partial<PersonalRules>,
];

const cases: Case[] = [
  ['a complete form is valid', {}, null],
  ['first name is required', { firstName: '  ' }, 'firstName', /First name is required/],
  [
    'first name holds letters only',
    { firstName: 'R1ley' },
    'firstName',
    /letters, spaces, hyphens, apostrophes and periods/,
  ],
  ['first name of 51 characters is too long', { firstName: 'A'.repeat(51) }, 'firstName', /at most 50/],
  ['names in other scripts are fine', { firstName: 'Łucja', lastName: 'Ørsted-Иванов' }, null],
  ['a curly apostrophe, as phones type it, is fine', { lastName: 'O’Brien' }, null],
  ['a name may start with an apostrophe', { lastName: "'t Hooft" }, null],
  ['a name needs a letter', { lastName: "'-." }, 'lastName', /letters/],
  ['middle name is required without the no-middle-name box', { middleName: '' }, 'middleName', /No middle name/],
  ['no middle name needs none', { middleName: '', noMiddleName: true }, null],
  ['last name is required', { lastName: '' }, 'lastName', /Last name is required/],
  ["mother's maiden name is checked when given", { mothersMaidenName: '<b>' }, 'mothersMaidenName', /letters/],
  ['SSN is optional when the company does not require it', { ssn: '', confirmSSN: '' }, null],
  [
    'SSN is required when the company requires it',
    { ssn: '', confirmSSN: '' },
    'ssn',
    /SSN is required/,
    { requireSSN: true },
  ],
  [
    'a saved SSN counts when the company requires one',
    { ssn: '', confirmSSN: '' },
    null,
    undefined,
    { requireSSN: true, ssnOnFile: true },
  ],
  ['SSN has nine digits', { ssn: '123-45-678', confirmSSN: '' }, 'ssn', /9 digits/],
  ['SSN area 000 is not issued', { ssn: '000-12-3456', confirmSSN: '000-12-3456' }, 'ssn', /not a valid SSN/],
  ['SSN area 666 is not issued', { ssn: '666-12-3456', confirmSSN: '666-12-3456' }, 'ssn', /not a valid SSN/],
  ['SSN area 9xx is not issued', { ssn: '912-12-3456', confirmSSN: '912-12-3456' }, 'ssn', /not a valid SSN/],
  ['SSN must be confirmed', { confirmSSN: '' }, 'confirmSSN', /again to confirm/],
  ['SSN confirmation must match', { confirmSSN: '123-45-6780' }, 'confirmSSN', /do not match/],
  [
    'no SSN needs the identification country',
    { noSSN: true, ssn: '', countryIdentificationNumber: 'X1' },
    'identificationCountry',
    /country/,
  ],
  [
    'no SSN needs the identification number',
    { noSSN: true, ssn: '', identificationCountry: 'CA' },
    'countryIdentificationNumber',
    /Identification number/,
  ],
  [
    'no SSN with identification is valid even when SSN is required',
    { noSSN: true, ssn: '', identificationCountry: 'CA', countryIdentificationNumber: 'X1' },
    null,
    undefined,
    { requireSSN: true },
  ],
  ['date of birth is required', { dob: '', confirmDOB: '' }, 'dob', /Enter your date of birth/],
  ['date of birth must be a real date', { dob: '1990-02-30', confirmDOB: '1990-02-30' }, 'dob', /real date/],
  ['date of birth must be in the past', { dob: '2026-11-22', confirmDOB: '2026-11-22' }, 'dob', /in the past/],
  ['the applicant is at least 14', { dob: '2012-11-23', confirmDOB: '2012-11-23' }, 'dob', /at least 14/],
  ['14 today is old enough', { dob: '2012-11-22', confirmDOB: '2012-11-22' }, null],
  ['date of birth before 1900 is refused', { dob: '1899-12-31', confirmDOB: '1899-12-31' }, 'dob', /before 1900/],
  ['date of birth must be confirmed', { confirmDOB: '' }, 'confirmDOB', /again to confirm/],
  ['date of birth confirmation must match', { confirmDOB: '1990-04-13' }, 'confirmDOB', /do not match/],
  ['daytime phone is required', { daytimePhoneNumber: '' }, 'daytimePhoneNumber', /Daytime phone number is required/],
  [
    'daytime phone must be a real number for its dial code',
    { daytimePhoneNumber: '555 0100' },
    'daytimePhoneNumber',
    /valid phone number for dial code \+1/,
  ],
  ['letters are not a phone number', { daytimePhoneNumber: '202 CALL NOW' }, 'daytimePhoneNumber', /valid phone/],
  ['a UK number with dial code 44', { daytimeDialCode: '44', daytimePhoneNumber: '020 7946 0018' }, null],
  [
    'a US number under dial code 44 is refused',
    { daytimeDialCode: '44', daytimePhoneNumber: '(202) 456-1111' },
    'daytimePhoneNumber',
    /\+44/,
  ],
  ['evening phone is optional but checked', { eveningPhoneNumber: '12' }, 'eveningPhoneNumber', /valid phone/],
  ['the dial code is 1 to 3 digits', { daytimeDialCode: 'abc' }, 'daytimeDialCode', /Choose a dial code, like \+1/],
  [
    'the evening dial code is checked with the evening phone',
    { eveningDialCode: '0', eveningPhoneNumber: '202 456 1111' },
    'eveningDialCode',
    /dial code/,
  ],
  [
    'a number the full metadata refuses is refused',
    { daytimeDialCode: '49', daytimePhoneNumber: '12345' },
    'daytimePhoneNumber',
    /\+49/,
  ],
  [
    "driver's license number is required unless there is none",
    { driversLicenseNumber: '' },
    'driversLicenseNumber',
    /No driver's license/,
  ],
  [
    "no driver's license needs neither number nor state",
    { driversLicenseNumber: '', driversLicenseState: '', noDriversLicenseNumber: true },
    null,
  ],
  [
    "driver's license number holds letters, digits, spaces and dashes",
    { driversLicenseNumber: 'D7#1' },
    'driversLicenseNumber',
    /as printed/,
  ],
  ["driver's license state is required", { driversLicenseState: '' }, 'driversLicenseState', /Choose the state/],
  ['drug test ZIP is optional', { drugZip: '' }, null],
  ['drug test ZIP has 5 digits', { drugZip: '9410' }, 'drugZip', /5-digit ZIP/],
  ['drug test ZIP+4 is fine', { drugZip: '94105-1234' }, null],
  [
    'a professional license needs its number',
    { licenses: [{ number: '', regionId: 6, regionName: 'California' }] },
    'licenses.0.number',
    /License number is required/,
  ],
  [
    'a professional license needs its state',
    { licenses: [{ number: 'RN-1', regionId: 0, regionName: '' }] },
    'licenses.0.regionId',
    /Choose the state/,
  ],
  [
    'e-mail notifications need an e-mail',
    { primaryNotificationMethod: { type: 'email', email: '', text: '' } },
    'primaryNotificationMethod.email',
    /E-mail address is required/,
  ],
  [
    'the e-mail must look like one',
    { primaryNotificationMethod: { type: 'email', email: 'riley@', text: '' } },
    'primaryNotificationMethod.email',
    /valid e-mail/,
  ],
  [
    'text notifications need a mobile number',
    { primaryNotificationMethod: { type: 'text', email: '', text: '' } },
    'primaryNotificationMethod.text',
    /Mobile number is required/,
  ],
  [
    'text notifications need a real mobile number',
    { primaryNotificationMethod: { type: 'text', email: '', text: '123' } },
    'primaryNotificationMethod.text',
    /valid mobile number/,
  ],
  [
    'both need both',
    { primaryNotificationMethod: { type: 'both', email: 'riley@example.com', text: '' } },
    'primaryNotificationMethod.text',
    /Mobile number is required/,
  ],
];

describe('personal information rules', () => {
  it.each(cases)('%s', (_name, change, field, message, extra) => {
    const errors = validatePersonal({ ...valid, ...change }, { ...rules, ...extra });
    if (field === null) {
      expect(errors).toEqual({});
      return;
    }
    expect(Object.keys(errors)).toEqual([field]);
    expect(errors[field]).toMatch(message as RegExp);
  });
});

describe('the form filled from the saved snapshot', () => {
  it('starts from the invitation before anything is saved', () => {
    const v = personalDefaults(null, { firstName: 'Riley', lastName: 'Stone', email: 'riley@example.com' });
    expect(v).toMatchObject({
      firstName: 'Riley',
      lastName: 'Stone',
      daytimeDialCode: '1',
      eveningDialCode: '1',
      ssn: '',
    });
    expect(v.primaryNotificationMethod).toEqual({ type: 'email', email: 'riley@example.com', text: '' });
  });

  it('takes the snapshot, never an SSN, and leaves the evening phone empty when it is the daytime fallback', () => {
    const v = personalDefaults(
      {
        firstName: 'Casey',
        lastName: 'Morgan',
        noMiddleFlag: true,
        suffix: 'JR',
        dob: '1988-01-02',
        ssnLastFour: '6789',
        daytimeDialCode: '44',
        daytimePhoneNumber: '02079460018',
        eveningDialCode: '44',
        eveningPhoneNumber: '02079460018',
        driversLicense: 'D1',
        driversLicenseState: 'US-IL',
        noSsnFlag: false,
      },
      { firstName: 'Other', lastName: 'Name', email: 'x@example.com' },
    );
    expect(v).toMatchObject({
      firstName: 'Casey',
      lastName: 'Morgan',
      noMiddleName: true,
      nameSuffix: 'JR',
      dob: '1988-01-02',
      confirmDOB: '1988-01-02',
      daytimeDialCode: '44',
      daytimePhoneNumber: '20 7946 0018',
      eveningDialCode: '44',
      eveningPhoneNumber: '',
      driversLicenseNumber: 'D1',
      ssn: '',
      confirmSSN: '',
    });
  });

  it('loads each saved phone into its own field, formatted', () => {
    const v = personalDefaults(
      {
        daytimeDialCode: '1',
        daytimePhoneNumber: '2024561111',
        eveningDialCode: '1',
        eveningPhoneNumber: '3125550142',
        primaryNotificationMethod: { type: 'text', email: '', text: '2025550199' },
      },
      {},
    );
    expect(v).toMatchObject({
      daytimeDialCode: '1',
      daytimePhoneNumber: '(202) 456-1111',
      eveningDialCode: '1',
      eveningPhoneNumber: '(312) 555-0142',
      primaryNotificationMethod: { type: 'text', text: '(202) 555-0199' },
    });
    // A formatted phone still passes the form's own check.
    expect(
      validatePersonal(
        { ...valid, daytimePhoneNumber: v.daytimePhoneNumber, eveningPhoneNumber: v.eveningPhoneNumber },
        rules,
      ),
    ).toEqual({});
  });

  it.each([
    ['1', '2024561111', '(202) 456-1111'],
    ['44', '2079460018', '20 7946 0018'],
    ['44', '02079460018', '20 7946 0018'],
    ['1', '12', '12'],
    ['1', '', ''],
  ])('formatPhone(+%s, %s) is %s', (dial, number, shown) => {
    expect(formatPhone(dial, number)).toBe(shown);
  });
});

describe('what the server is sent', () => {
  it('sends a cleared suffix as an empty string, the SSN as digits, the phones with their dial codes and the identification with the no-SSN flag', () => {
    const body = toRequest({
      ...valid,
      nameSuffix: '',
      noSSN: true,
      ssn: '',
      identificationCountry: 'CA',
      countryIdentificationNumber: 'X1',
    });
    expect(body).toMatchObject({
      nameSuffix: '',
      ssn: '',
      noSSN: true,
      identificationCountry: 'CA',
      countryIdentificationNumber: 'X1',
      daytimeDialCode: '1',
      daytimePhoneNumber: '(202) 456-1111',
      eveningDialCode: '1',
    });
    expect(toRequest(valid).ssn).toBe('123456789');
  });
});
