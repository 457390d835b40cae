// What each legal step asks (spec section 3, document types), and its rules.
import { freeReportCopyOffered, rightsNotices, type LegalStep, type Location } from '../lib/legal-steps';

export type StepValues = Record<string, string | boolean>;

export type CheckboxSpec = { name: string; label: string };

export type StepForm = {
  names: boolean;
  checkboxes: CheckboxSpec[];
  dotRelease: boolean;
  signature: boolean;
  /** Text shown outside the document, beside the form. */
  help?: string;
};

const ackReceipt: CheckboxSpec = { name: 'ackReceipt', label: 'I have read this document and received a copy of it.' };

export function stepForm(step: LegalStep, location: Location): StepForm {
  switch (step.documentType) {
    case 'e_sign':
      return {
        names: true,
        dotRelease: false,
        signature: false,
        checkboxes: [
          { name: 'ackConsent', label: 'I agree to receive and sign these documents electronically.' },
          { name: 'ackNotices', label: 'I can open, print or download the notices, and I have read them.' },
        ],
      };
    case 'investigative_consumer_report':
      return {
        names: false,
        dotRelease: false,
        signature: true,
        checkboxes: [ackReceipt],
        help: 'You may ask in writing for the nature and scope of the investigation. Send the request to the employer named above; the answer is mailed to you within 5 days of receiving your request.',
      };
    case 'rights':
      return {
        names: false,
        dotRelease: false,
        signature: false,
        checkboxes: step.ackFlags.map((flag) =>
          flag === 'ackReceiptYourRights'
            ? { name: flag, label: 'I have received the summary of my rights.' }
            : { name: flag, label: `I have read: ${rightsNotices.find((n) => n.ackField === flag)?.name ?? flag}` },
        ),
      };
    case 'authorization_for_background':
      return {
        names: true,
        dotRelease: false,
        signature: true,
        checkboxes: [
          { name: 'authConsent', label: 'I authorize the background check described in this document.' },
          ...(freeReportCopyOffered(location) ? [{ name: 'freeReportCopy', label: 'Send me a free copy of my report.' }] : []),
        ],
      };
    case 'dot_release':
      return { names: true, dotRelease: true, signature: true, checkboxes: [] };
    case 'disclosure':
    case 'california_disclosure':
    case 'addl_state_disclosures':
      return { names: false, dotRelease: false, signature: true, checkboxes: [ackReceipt] };
  }
  return { names: false, dotRelease: false, signature: true, checkboxes: [] };
}

/** Checkboxes that are an offer, not a requirement. */
const optional = new Set(['freeReportCopy']);

export type Applicant = { firstName: string; lastName: string };

/** As the server compares names: case-insensitive, ignoring surrounding and repeated spaces. */
export function sameName(a: string, b: string): boolean {
  const norm = (s: string) => s.trim().split(/\s+/).join(' ').toLowerCase();
  return norm(a) === norm(b);
}

/** The messages of a step's form, by field; empty when it may be signed. */
export function validateStep(form: StepForm, values: StepValues, applicant: Applicant): Record<string, string> {
  const errors: Record<string, string> = {};
  const text = (name: string) => String(values[name] ?? '').trim();
  if (form.names) {
    for (const [field, label, want] of [
      ['firstName', 'first name', applicant.firstName],
      ['lastName', 'last name', applicant.lastName],
    ] as const) {
      if (!text(field)) errors[field] = `Type your ${label}.`;
      else if (want && !sameName(text(field), want))
        errors[field] = `The ${label} must match the name on your application: ${want.trim()}`;
    }
  }
  for (const box of form.checkboxes) {
    if (!optional.has(box.name) && values[box.name] !== true) errors[box.name] = 'Please tick this box to continue.';
  }
  if (form.dotRelease) {
    if (values.noSSN === true) {
      if (!text('identificationCountry')) errors.identificationCountry = 'Choose the country that issued your identification.';
      if (!text('identificationNumber')) errors.identificationNumber = 'Type your identification number.';
    } else if (!/^\d{4}$/.test(text('lastFourSSN'))) {
      errors.lastFourSSN = 'Type the last four digits of your Social Security number.';
    }
  }
  if (form.signature && !text('signature')) errors.signature = 'Please sign: draw your signature, or type it.';
  return errors;
}

/**
 * What is still to do before the step can be signed, in one sentence, or ''
 * when nothing is. Shown beside the disabled button, which says nothing
 * itself: the messages of fields not yet left are not shown, and on a phone
 * the field in question may be off screen.
 */
export function stillToDo(form: StepForm, errors: Record<string, string>, applicant: Applicant): string {
  const todo: string[] = [];
  if (errors.firstName || errors.lastName) {
    const name = `${applicant.firstName} ${applicant.lastName}`.trim();
    todo.push(name ? `type your name as it is on your application: ${name}` : 'type your first and last name');
  }
  const boxes = form.checkboxes.filter((box) => errors[box.name]).length;
  if (boxes > 0) todo.push(boxes === 1 ? 'tick the box above' : 'tick the boxes above');
  if (errors.lastFourSSN) todo.push('type the last four digits of your Social Security number');
  if (errors.identificationCountry || errors.identificationNumber) todo.push('give the country and number of your identification');
  if (errors.signature) todo.push('draw or type your signature');
  return todo.length ? `Still to do: ${todo.join('; ')}.` : '';
}
