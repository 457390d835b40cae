// Ask once: what a signing form asks that the portal already knows, filled in
// for the applicant to check. The names come from the invitation (the server
// compares the typed names with them); the last four SSN digits, or the
// identification that stands for an SSN, from the personal information saved
// (GET /api/v2/user answers only the last four digits of an SSN, never more).
import type { Subject } from '@/types/api';
import { currentLocale } from '@/lib/locale';

export type KnownIdentity = {
  firstName: string;
  lastName: string;
  /** Four digits, or '' when no SSN is on file. */
  lastFourSSN: string;
  /** The applicant said they have no SSN and gave an identification instead. */
  noSSN: boolean;
  /** The issuing country's name, as the release asks for it. */
  identificationCountry: string;
  identificationNumber: string;
};

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** "MX" → "Mexico"; a code the browser does not know, or a name already, stays as it is. */
export function countryName(code: string): string {
  if (!/^[A-Z]{2}$/.test(code)) return code;
  try {
    return new Intl.DisplayNames([currentLocale()], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

export function knownIdentity(subject: Subject | null | undefined): KnownIdentity {
  const personal = subject?.personalInformation ?? null;
  const lastFour = text(personal?.ssnLastFour);
  const noSSN = personal?.noSsnFlag === true && !lastFour;
  return {
    firstName: text(subject?.firstName),
    lastName: text(subject?.lastName),
    lastFourSSN: /^\d{4}$/.test(lastFour) ? lastFour : '',
    noSSN,
    identificationCountry: noSSN ? countryName(text(personal?.identificationCountry)) : '',
    identificationNumber: noSSN ? text(personal?.countryIdentificationNumber) : '',
  };
}

/** Which of a form's fields start from what is known: each is marked as such. */
export type Prefilled = { names: boolean; lastFourSSN: boolean; identification: boolean };

export function prefilledOf(known: KnownIdentity): Prefilled {
  return {
    names: Boolean(known.firstName || known.lastName),
    lastFourSSN: Boolean(known.lastFourSSN),
    identification: known.noSSN && Boolean(known.identificationCountry || known.identificationNumber),
  };
}
