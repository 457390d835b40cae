// Ask once: a fillable PDF form's field that asks for something the portal
// already knows (a name, the date of birth, the driver's license, the current
// address, a phone number, the e-mail) starts filled in, for the applicant to
// check. Which field asks for what is read from its name and its label with
// the table below: forms in the wild name their fields "FirstName",
// "Applicant Name", "DOB", "DL #", "Lic State",
// "topmostSubform[0].Page1[0].LastName[0]"...
import type { Address } from '@/lib/subject';
import type { Subject } from '@/types/api';
import type { PdfFieldDescriptor, PdfFieldKind } from './pdf-fields';

/** What the portal knows of the applicant, each '' when it does not. */
export type KnownData = {
  firstName: string;
  middleName: string;
  lastName: string;
  /** yyyy-mm-dd. */
  dob: string;
  licenseNumber: string;
  /** The issuing state as the states lookup codes it ("US-CA"). */
  licenseState: string;
  street1: string;
  street2: string;
  city: string;
  /** As the address has it: "US-CA" in the US, the region as written abroad. */
  state: string;
  zip: string;
  phone: string;
  email: string;
};

export const noKnownData: KnownData = {
  firstName: '',
  middleName: '',
  lastName: '',
  dob: '',
  licenseNumber: '',
  licenseState: '',
  street1: '',
  street2: '',
  city: '',
  state: '',
  zip: '',
  phone: '',
  email: '',
};

/** What a field can be filled with: a piece of KnownData, or one made of several. */
export type KnownKind =
  | 'firstName'
  | 'middleName'
  | 'middleInitial'
  | 'lastName'
  | 'fullName'
  | 'dob'
  | 'licenseNumber'
  | 'licenseState'
  | 'street1'
  | 'street2'
  | 'city'
  | 'state'
  | 'zip'
  | 'cityStateZip'
  | 'fullAddress'
  | 'phone'
  | 'email';

/**
 * Fields about someone or something else, or that the applicant must give themselves (a signature is
 * an act, not data): never filled in, whatever else their words say.
 */
const NOT_THE_APPLICANTS =
  /\b(signature|signed|sign|initials|employer|company|business|supervisor|manager|reference|emergency|spouse|mother|father|parent|guardian|relative|witness|notary|contact person|physician|doctor|school|previous|prior|former|other|alias|maiden|aka|billing|work|office|fax)\b|\bfirst\b.*\blast\b|\blast\b.*\bfirst\b/;

/** Words that make "first" or "last" something else than a name ("Last 4 of SSN", "First day of work"). */
const NOT_A_NAME = /\b(ssn|social|digits?|\d+|four|day|date|year|month|time)\b/;

type Rule = { kind: KnownKind; words: RegExp; kinds: PdfFieldKind[]; unless?: RegExp };

const TEXT: PdfFieldKind[] = ['text'];
const CHOICE: PdfFieldKind[] = ['text', 'dropdown'];

/** In order: the first rule whose words match the field's decides. */
const RULES: Rule[] = [
  { kind: 'dob', words: /\b(dob|date of birth|birth ?date|birthday|born)\b/, kinds: ['date', 'text'] },
  {
    kind: 'licenseState',
    words: /\b(dl|driver'?s?|licen[cs]e|lic|issuing)\b.*\bstate\b|\bstate\b.*\b(dl|licen[cs]e|lic|issu(ed|ing))\b/,
    kinds: CHOICE,
  },
  {
    kind: 'licenseNumber',
    words: /\b(dl|cdl|driver'?s? ?licen[cs]e|licen[cs]e|lic)\b/,
    kinds: TEXT,
    unless: /\b(name|class|type|expir\w*|exp|endorsements?|restrictions?|issued|issue|date|plate|professional)\b/,
  },
  { kind: 'email', words: /\be ?mail\b/, kinds: TEXT },
  { kind: 'phone', words: /\b(phone|telephone|tel|mobile|cell)\b/, kinds: TEXT },
  { kind: 'middleInitial', words: /\b(middle initial|mi)\b/, kinds: TEXT },
  { kind: 'middleName', words: /\b(middle|mname)\b/, kinds: TEXT },
  { kind: 'firstName', words: /\b(first|given|fore) ?name\b|\b(fname|first)\b/, kinds: TEXT, unless: NOT_A_NAME },
  { kind: 'lastName', words: /\b(last|family|sur) ?name\b|\b(lname|surname|last)\b/, kinds: TEXT, unless: NOT_A_NAME },
  // One line for a whole address: its words name the parts ("Current address (street, city, state, ZIP)").
  { kind: 'fullAddress', words: /\baddress\b.*\bcity\b|\bstreet\b.*\bcity\b.*\b(state|zip)\b/, kinds: TEXT },
  { kind: 'cityStateZip', words: /\bcity\b.*\bstate\b.*\b(zip|postal)\b/, kinds: TEXT },
  { kind: 'street2', words: /\b(address|addr|street) ?(line )?2\b|\b(apt|apartment|suite|unit)\b/, kinds: TEXT },
  { kind: 'street1', words: /\b(street|address|addr|residence)\b/, kinds: TEXT, unless: /\b(ip|web|url)\b/ },
  { kind: 'city', words: /\b(city|town)\b/, kinds: TEXT },
  { kind: 'zip', words: /\b(zip|postal|post code|postcode)\b/, kinds: TEXT },
  { kind: 'state', words: /\bstate\b/, kinds: CHOICE },
  // A name asked whole: "Applicant Name", "Full legal name", "Name", "Print name".
  { kind: 'fullName', words: /\bname\b/, kinds: TEXT, unless: /\b(file|user ?name|business)\b/ },
];

/**
 * The words of a field's name or label, lower case and one space apart: "topmostSubform[0].Page1[0].LastName[0]"
 * → "last name", "DL #" → "dl #", "applicant_full_name" → "applicant full name".
 */
export function wordsOf(text: string): string {
  const last = text.includes('.') && !/\s/.test(text) ? (text.split('.').pop() ?? text) : text;
  return last
    .replace(/\[\d+\]/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_\-./:()[\],]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** What the field asks that the portal may know, or null: its label decides first, then its name. */
export function knownKindOf(field: Pick<PdfFieldDescriptor, 'name' | 'label' | 'kind'>): KnownKind | null {
  for (const text of [field.label, field.name]) {
    const words = wordsOf(text);
    if (!words) continue;
    if (NOT_THE_APPLICANTS.test(words)) return null;
    const rule = RULES.find((r) => r.words.test(words) && !r.unless?.test(words));
    if (rule) return rule.kinds.includes(field.kind) ? rule.kind : null;
  }
  return null;
}

/** "US-CA" → "CA"; a region abroad stays as written. */
const postalCode = (state: string) => state.replace(/^US-/, '');

/** yyyy-mm-dd → MM/DD/YYYY, as a one-line text field writes a date. */
const usDate = (iso: string) => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return m ? `${m[2]}/${m[3]}/${m[1]}` : iso;
};

const joined = (parts: string[], separator: string) => parts.filter(Boolean).join(separator);

/** The value KnownData gives a kind, as text; '' when unknown. */
function textOf(kind: KnownKind, known: KnownData): string {
  const cityStateZip = joined([known.city, joined([postalCode(known.state), known.zip], ' ')], ', ');
  switch (kind) {
    case 'fullName':
      return joined([known.firstName, known.middleName, known.lastName], ' ');
    case 'middleInitial':
      return known.middleName.slice(0, 1).toUpperCase();
    case 'dob':
      return usDate(known.dob);
    case 'licenseState':
      return postalCode(known.licenseState);
    case 'state':
      return postalCode(known.state);
    case 'cityStateZip':
      return known.city ? cityStateZip : '';
    case 'fullAddress':
      return known.street1 ? joined([joined([known.street1, known.street2], ' '), cityStateZip], ', ') : '';
    default:
      return known[kind];
  }
}

/** A state dropdown's option for a state code: by postal code, lookup code or name; '' when none fits. */
function stateOption(options: string[], code: string, nameOf: (code: string) => string): string {
  if (!code) return '';
  const wanted = [code, postalCode(code), nameOf(code)].filter(Boolean).map((s) => s.toUpperCase());
  return options.find((o) => wanted.includes(o.trim().toUpperCase())) ?? '';
}

/** What `field` starts with from `known`, or '' when the portal does not know it (or the field is not asking). */
export function knownValueFor(
  field: PdfFieldDescriptor,
  known: KnownData,
  stateName: (code: string) => string = () => '',
): string {
  const kind = knownKindOf(field);
  if (!kind) return '';
  if (field.kind === 'date') return kind === 'dob' ? known.dob : '';
  if (field.kind === 'dropdown') {
    const code = kind === 'licenseState' ? known.licenseState : kind === 'state' ? known.state : '';
    return stateOption(field.options ?? [], code, stateName);
  }
  const value = textOf(kind, known);
  return field.maxLength && value.length > field.maxLength ? '' : value;
}

/**
 * The fields, each empty one the portal can fill starting from what it knows and marked `prefilled`.
 * A value the field has already (the template's, or the answer sent last) is never replaced.
 */
export function prefillFields(
  fields: PdfFieldDescriptor[],
  known: KnownData,
  stateName?: (code: string) => string,
): PdfFieldDescriptor[] {
  return fields.map((field) => {
    if (field.value !== '') return field;
    const value = knownValueFor(field, known, stateName);
    return value ? { ...field, value, prefilled: true } : field;
  });
}

/** A phone number as the applicant reads it: "(202) 456-1111" at home, "+44 20 7946 0958" abroad as typed. */
export function phoneText(dialCode: string, number: string): string {
  const digits = number.replace(/\D/g, '');
  if (!digits) return '';
  const dial = dialCode.replace(/\D/g, '') || '1';
  if (dial === '1' && digits.length === 10) return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
  return `+${dial} ${number.trim()}`;
}

type KnownSources = {
  /** The user of GET /api/v2/user: the invitation's names and e-mail, the personal information saved. */
  subject: Pick<Subject, 'firstName' | 'lastName' | 'email' | 'phone' | 'personalInformation'> | null | undefined;
  /** The address history saved; the current address fills the address fields. */
  addresses: Address[] | undefined;
};

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** What the portal knows, from what it gave the app: the personal information first, the invitation else. */
export function knownDataOf({ subject, addresses }: KnownSources): KnownData {
  const personal = subject?.personalInformation ?? {};
  const current = addresses?.find((a) => a.current);
  const phone =
    phoneText(text(personal.daytimeDialCode), text(personal.daytimePhoneNumber)) ||
    phoneText('1', text(subject?.phone));
  return {
    firstName: text(personal.firstName) || text(subject?.firstName),
    middleName: personal.noMiddleFlag === true ? '' : text(personal.middleName),
    lastName: text(personal.lastName) || text(subject?.lastName),
    dob: text(personal.dob),
    licenseNumber: personal.noDriversLicenseFlag === true ? '' : text(personal.driversLicense),
    licenseState: personal.noDriversLicenseFlag === true ? '' : text(personal.driversLicenseState),
    street1: text(current?.street1),
    street2: text(current?.street2),
    city: text(current?.city),
    state: text(current?.state),
    zip: text(current?.zip),
    phone,
    email: text(subject?.email),
  };
}
