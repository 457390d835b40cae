// What each legal step asks (spec section 3, document types), and its rules.
import '@/features/legal/lib/messages';
import { z } from 'zod/mini';
import { freeReportCopyOffered, noticeName, rightsNotices, type LegalStep, type Location } from '../lib/legal-steps';
import type { KnownIdentity } from '../lib/known-identity';
import { t } from '@/lib/i18n';

export type StepValues = Record<string, string | boolean>;

export type CheckboxSpec = { name: string; label: string };

export type StepForm = {
  names: boolean;
  checkboxes: CheckboxSpec[];
  dotRelease: boolean;
  /** A per-employer DOT release also asks DOT_QUESTION (testedPositiveOrRefused: "yes" or "no"). */
  dotQuestion?: boolean;
  signature: boolean;
  /** Text shown outside the document, beside the form. */
  help?: string;
};

const ackReceipt = (): CheckboxSpec => ({ name: 'ackReceipt', label: t('legal.fields.iHaveReadThisDocument') });

export function stepForm(step: LegalStep, location: Location): StepForm {
  switch (step.documentType) {
    case 'e_sign':
      return {
        names: true,
        dotRelease: false,
        signature: false,
        checkboxes: [
          { name: 'ackConsent', label: t('legal.fields.iAgreeToReceiveAnd') },
          { name: 'ackNotices', label: t('legal.fields.iCanOpenPrintOr') },
        ],
      };
    case 'investigative_consumer_report':
      return {
        names: false,
        dotRelease: false,
        signature: true,
        checkboxes: [ackReceipt()],
        help: t('legal.fields.youMayAskInWriting'),
      };
    case 'rights':
      return {
        names: false,
        dotRelease: false,
        signature: false,
        checkboxes: step.ackFlags.map((flag) =>
          flag === 'ackReceiptYourRights'
            ? { name: flag, label: t('legal.fields.iHaveReceivedTheSummary') }
            : {
                name: flag,
                label: t('legal.fields.iHaveRead', {
                  name: noticeName(rightsNotices.find((n) => n.ackField === flag)) ?? flag,
                }),
              },
        ),
      };
    case 'authorization_for_background':
      return {
        names: true,
        dotRelease: false,
        signature: true,
        checkboxes: [
          { name: 'authConsent', label: t('legal.fields.iAuthorizeTheBackgroundCheck') },
          ...(freeReportCopyOffered(location)
            ? [{ name: 'freeReportCopy', label: t('legal.fields.sendMeAFreeCopy') }]
            : []),
        ],
      };
    case 'dot_release':
      return { names: true, dotRelease: true, signature: true, checkboxes: [] };
    case 'disclosure':
    case 'california_disclosure':
    case 'addl_state_disclosures':
      return { names: false, dotRelease: false, signature: true, checkboxes: [ackReceipt()] };
  }
  return { names: false, dotRelease: false, signature: true, checkboxes: [] };
}

/** The form of a per-employer DOT release: the setup release's fields and the question of 49 CFR 40.25(j). */
export function releaseForm(): StepForm {
  return { names: true, dotRelease: true, dotQuestion: true, signature: true, checkboxes: [] };
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
      ['firstName', t('legal.fields.firstName'), applicant.firstName],
      ['lastName', t('legal.fields.lastName'), applicant.lastName],
    ] as const) {
      if (!text(field)) errors[field] = t('legal.fields.typeYour', { label });
      else if (want && !sameName(text(field), want))
        errors[field] = t('legal.fields.mustMatch', { label, name: want.trim() });
    }
  }
  for (const box of form.checkboxes) {
    if (!optional.has(box.name) && values[box.name] !== true) errors[box.name] = t('legal.fields.pleaseTickThisBoxTo');
  }
  if (form.dotRelease) {
    if (values.noSSN === true) {
      if (!text('identificationCountry')) errors.identificationCountry = t('legal.fields.chooseTheCountryThatIssued');
      if (!text('identificationNumber')) errors.identificationNumber = t('legal.fields.typeYourIdentificationNumber');
    } else if (!/^\d{4}$/.test(text('lastFourSSN'))) {
      errors.lastFourSSN = t('legal.fields.typeTheLastFourDigits');
    }
  }
  if (form.dotQuestion && !['yes', 'no'].includes(text('testedPositiveOrRefused')))
    errors.testedPositiveOrRefused = t('legal.dot.answerTheQuestion');
  if (form.signature && !text('signature')) errors.signature = t('legal.fields.pleaseSignDrawYourSignature');
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
    todo.push(name ? t('legal.fields.todoName', { name }) : t('legal.fields.todoNames'));
  }
  const boxes = form.checkboxes.filter((box) => errors[box.name]).length;
  if (boxes > 0) todo.push(boxes === 1 ? t('legal.fields.todoBox') : t('legal.fields.todoBoxes'));
  if (errors.lastFourSSN) todo.push(t('legal.fields.typeTheLastFourDigits2'));
  if (errors.identificationCountry || errors.identificationNumber) todo.push(t('legal.fields.giveTheCountryAndNumber'));
  if (errors.testedPositiveOrRefused) todo.push(t('legal.dot.todoAnswer'));
  if (errors.signature) todo.push(t('legal.fields.drawOrTypeYourSignature'));
  return todo.length ? t('legal.fields.todo', { items: todo.join('; ') }) : '';
}

/**
 * The form's starting values: every field it shows, empty, but what the portal already knows (ask
 * once): the names of the invitation and, on a DOT release, the SSN's last four digits or the
 * identification given instead. Boxes and the signature are always the applicant's own act.
 */
export function stepDefaults(form: StepForm, known?: KnownIdentity): StepValues {
  const values: StepValues = {};
  if (form.names) Object.assign(values, { firstName: known?.firstName ?? '', lastName: known?.lastName ?? '' });
  for (const box of form.checkboxes) values[box.name] = false;
  if (form.dotRelease)
    Object.assign(values, {
      noSSN: known?.noSSN ?? false,
      lastFourSSN: known?.lastFourSSN ?? '',
      identificationCountry: known?.identificationCountry ?? '',
      identificationNumber: known?.identificationNumber ?? '',
    });
  if (form.dotQuestion) values.testedPositiveOrRefused = '';
  if (form.signature) values.signature = '';
  return values;
}

/**
 * The step's zod schema for react-hook-form. Its rules are validateStep's, in
 * one refinement over the whole form: they depend on each other (no SSN asks
 * for an identification instead) and the "still to do" line beside the button
 * needs every rule's message at once, also for fields not yet touched.
 */
export function stepSchema(form: StepForm, applicant: Applicant) {
  const shape: Record<string, z.ZodMiniString<string> | z.ZodMiniBoolean<boolean>> = {};
  for (const [name, value] of Object.entries(stepDefaults(form))) {
    shape[name] = typeof value === 'boolean' ? z.boolean() : z.string();
  }
  return z.object(shape).check(
    z.superRefine((values, ctx) => {
      for (const [name, message] of Object.entries(validateStep(form, values, applicant))) {
        ctx.issues.push({ code: 'custom', path: [name], message, input: values[name] });
      }
    }),
  );
}

/** What a signature of the step sends: the fields of the choice made (an SSN or an identification). */
export function stepFields(form: StepForm, values: StepValues): StepValues {
  const fields: StepValues = { ...values };
  if (form.dotRelease) {
    if (values.noSSN === true) delete fields.lastFourSSN;
    else {
      delete fields.noSSN;
      delete fields.identificationCountry;
      delete fields.identificationNumber;
    }
  }
  return fields;
}
