import { describe, expect, it } from 'vitest';
import { knownKindOf, knownValueFor, prefillFields, wordsOf, type KnownData } from '../lib/known-values';
import type { PdfFieldDescriptor, PdfFieldKind } from '../lib/pdf-fields';

const known: KnownData = {
  firstName: 'Casey',
  middleName: 'Lee',
  lastName: 'Morgan',
  dob: '1990-04-12',
  licenseNumber: 'D1234567',
  licenseState: 'US-CA',
  street1: '500 Market St',
  street2: 'Apt 4',
  city: 'San Francisco',
  state: 'US-CA',
  zip: '94105',
  phone: '(202) 456-1111',
  email: 'casey@example.com',
};

const field = (name: string, kind: PdfFieldKind = 'text', label = '', extra: Partial<PdfFieldDescriptor> = {}) =>
  ({ name, label: label || name, kind, value: kind === 'checkbox' ? false : '', ...extra }) as PdfFieldDescriptor;

describe('the words of a field', () => {
  it.each([
    ['FirstName', 'first name'],
    ['topmostSubform[0].Page1[0].LastName[0]', 'last name'],
    ['applicant_full_name', 'applicant full name'],
    ['DL #', 'dl #'],
    ['Date of Birth (MM/DD/YYYY)', 'date of birth mm dd yyyy'],
    ['DOBField', 'dob field'],
  ])('%s reads as "%s"', (text, words) => {
    expect(wordsOf(text)).toBe(words);
  });
});

describe('what a PDF field asks that the portal knows', () => {
  it.each<[string, PdfFieldKind, string, string]>([
    // [name, kind, label, value it starts with]
    ['FirstName', 'text', '', 'Casey'],
    ['fname', 'text', '', 'Casey'],
    ['Given Name', 'text', '', 'Casey'],
    ['MiddleName', 'text', '', 'Lee'],
    ['Middle Initial', 'text', '', 'L'],
    ['MI', 'text', '', 'L'],
    ['topmostSubform[0].Page1[0].LastName[0]', 'text', '', 'Morgan'],
    ['Surname', 'text', '', 'Morgan'],
    ['Applicant Name', 'text', '', 'Casey Lee Morgan'],
    ['applicant_full_name', 'text', 'Full legal name', 'Casey Lee Morgan'],
    ['full_name', 'text', 'Full name as printed on your license', 'Casey Lee Morgan'],
    ['Name', 'text', '', 'Casey Lee Morgan'],
    ['DOB', 'text', '', '04/12/1990'],
    ['Date of Birth', 'text', '', '04/12/1990'],
    ['birth_date', 'date', 'Date of birth', '1990-04-12'],
    ['DL #', 'text', '', 'D1234567'],
    ['license_number', 'text', "Driver's license number", 'D1234567'],
    ['DriversLicenseNo', 'text', '', 'D1234567'],
    ['Lic State', 'text', '', 'CA'],
    ['DL State', 'text', '', 'CA'],
    ['issuing_state', 'dropdown', 'Issuing state', 'CA'],
    ['Street Address', 'text', '', '500 Market St'],
    ['Address Line 1', 'text', '', '500 Market St'],
    ['Address Line 2', 'text', '', 'Apt 4'],
    ['City', 'text', '', 'San Francisco'],
    ['State', 'text', '', 'CA'],
    ['Zip Code', 'text', '', '94105'],
    ['ZIP', 'text', '', '94105'],
    ['City, State, Zip', 'text', '', 'San Francisco, CA 94105'],
    [
      'current_address',
      'text',
      'Current address (street, city, state, ZIP)',
      '500 Market St Apt 4, San Francisco, CA 94105',
    ],
    ['Phone Number', 'text', '', '(202) 456-1111'],
    ['Cell', 'text', '', '(202) 456-1111'],
    ['Email Address', 'text', '', 'casey@example.com'],
    ['E-mail', 'text', '', 'casey@example.com'],
  ])('%s (%s, "%s") starts as "%s"', (name, kind, label, value) => {
    const options = kind === 'dropdown' ? ['AK', 'CA', 'TX'] : undefined;
    expect(knownValueFor(field(name, kind, label, { options }), known)).toBe(value);
  });

  it.each<[string, PdfFieldKind, string]>([
    ['signature_name', 'text', 'Signature (type your full name)'],
    ['Employer Name', 'text', ''],
    ['Emergency Contact Phone', 'text', ''],
    ['other_names_used', 'text', 'Other names used (maiden, former, nicknames)'],
    ["Mother's Maiden Name", 'text', ''],
    ['Previous Address', 'text', ''],
    ['Reference 1 Name', 'text', ''],
    ['Last 4 of SSN', 'text', ''],
    ['First day of work', 'text', ''],
    ['Name (Last, First, Middle)', 'text', ''],
    ['license_class', 'radio', 'License class'],
    ['License Expiration Date', 'text', ''],
    ['commercial_license_last_3_years', 'checkbox', "I hold or held a commercial driver's license (CDL)"],
    ['consent_date', 'date', 'Date'],
    ['purpose', 'dropdown', 'Purpose of the check'],
    ['idaho_counties', 'multiline', 'Idaho counties lived in (one per line)'],
  ])('%s (%s, "%s") is left for the applicant', (name, kind, label) => {
    expect(knownValueFor(field(name, kind, label, { options: ['A', 'B'] }), known)).toBe('');
  });

  it('reads the label first: a field named by its position is filled by what its label asks', () => {
    expect(knownKindOf(field('Text1', 'text', 'Date of birth'))).toBe('dob');
    expect(knownKindOf(field('Text2', 'text', 'Text2'))).toBeNull();
  });

  it('picks a state dropdown option by code, lookup code or name', () => {
    const stateName = (code: string) => (code === 'US-CA' ? 'California' : '');
    expect(
      knownValueFor(field('Lic State', 'dropdown', '', { options: ['Arizona', 'California'] }), known, stateName),
    ).toBe('California');
    expect(knownValueFor(field('State', 'dropdown', '', { options: ['US-AZ', 'US-CA'] }), known)).toBe('US-CA');
    expect(knownValueFor(field('State', 'dropdown', '', { options: ['AZ', 'NV'] }), known)).toBe('');
  });

  it('leaves a value that would not fit the field empty rather than cut it', () => {
    expect(knownValueFor(field('Applicant Name', 'text', '', { maxLength: 10 }), known)).toBe('');
  });

  it('fills nothing the portal does not know', () => {
    expect(knownValueFor(field('DL #'), { ...known, licenseNumber: '' })).toBe('');
    expect(
      knownValueFor(field('current_address', 'text', 'Current address (street, city, state, ZIP)'), {
        ...known,
        street1: '',
      }),
    ).toBe('');
  });
});

describe('prefilling a form', () => {
  it('fills the empty fields it can, marks them, and never replaces a value the form had', () => {
    const fields = [
      field('FirstName'),
      field('LastName', 'text', '', { value: 'Morgan-Smith' }),
      field('birth_date', 'date', 'Date of birth'),
      field('purpose', 'text', 'Purpose'),
    ];
    const filled = prefillFields(fields, known);
    expect(filled.map((f) => [f.value, f.prefilled ?? false])).toEqual([
      ['Casey', true],
      ['Morgan-Smith', false],
      ['1990-04-12', true],
      ['', false],
    ]);
  });
});
