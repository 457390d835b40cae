// The legal part of setup (spec sections 2 and 4): where the applicant
// lives, then each applicable document in order, read as a standalone
// document and signed with the step's form below it.
import '@/features/legal/lib/messages';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { SignaturePad } from '@/components/signature-pad/signature-pad';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { ApiError, errorMessageOf } from '@/lib/api-client';
import { raiseSsnMismatchFrom } from '@/lib/app-events';
import { notify } from '@/lib/notifications';
import { useCurrentUser } from '@/lib/current-user';
import { documentContentQueryOptions, useDocumentContent } from '../api/get-document-content';
import { useLegalDocuments } from '../api/get-legal-documents';
import { downloadDocumentCopy } from '../api/download-document-copy';
import { downloadSignedPdf } from '../api/download-signed-pdf';
import { deleteSignature, useSignLegalStep } from '../api/sign-legal-step';
import { useSetResidency, useSubjectLocation } from '../api/subject-location';
import {
  legalSteps,
  printNameOf,
  stepSigned,
  type LegalDocument,
  type LegalStep,
  type Location,
} from '../lib/legal-steps';
import { checkLastFourSSN, ssnMismatchMessage } from '../lib/ssn-check';
import { ResidencyForm } from './residency-form';
import { SsnMismatchPanel } from './ssn-mismatch-panel';
import { stepForm, stillToDo, validateStep, type StepValues } from './step-fields';
import styles from './legal-stepper.module.css';
import { t } from '@/lib/i18n';

type LegalStepperProps = {
  onComplete: () => void;
  onFailed?: (error: unknown) => void;
};

export function stepTitle(step: LegalStep): string {
  return step.documentType === 'rights' ? t('legal.step.rights') : (step.documents[0]?.title ?? step.documentType);
}

export function LegalStepper({ onComplete, onFailed }: LegalStepperProps) {
  const documents = useLegalDocuments();
  const location = useSubjectLocation();
  if (documents.isError || location.isError) {
    return (
      <p role="alert" className={styles.alert}>
        {errorMessageOf(documents.error ?? location.error, t('errors.documentIds'))}
      </p>
    );
  }
  if (!documents.data || !location.data) return <p>{t('legal.stepper.loadingYourLegalDocuments')}</p>;
  const loc = location.data;
  if (!loc.residency.nonUs && !loc.residency.state) return <ResidencyQuestion />;
  return (
    <Steps
      steps={legalSteps(documents.data, loc)}
      location={loc}
      // A list from the cache may be out of date (signatures cleared meanwhile):
      // only a fetched one may complete the step.
      fresh={!documents.isFetching}
      onComplete={onComplete}
      onFailed={onFailed}
    />
  );
}

function ResidencyQuestion() {
  const setResidency = useSetResidency();
  return (
    <ResidencyForm
      busy={setResidency.isPending}
      error={setResidency.error ? errorMessageOf(setResidency.error) : undefined}
      onSubmit={(residency) => setResidency.mutate(residency)}
    />
  );
}

type StepsProps = { steps: LegalStep[]; location: Location; fresh: boolean } & LegalStepperProps;

function Steps({ steps, location, fresh, onComplete, onFailed }: StepsProps) {
  const firstOpen = steps.findIndex((s) => !stepSigned(s));
  const [active, setActive] = useState(firstOpen < 0 ? 0 : firstOpen);
  // Bumped when the signatures are cleared, so every step's form starts empty.
  const [round, setRound] = useState(0);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const paperForms = steps.flatMap((s) => s.documents).find((d) => d.signature?.outcome === 'paper_forms');
  const allSigned = steps.every(stepSigned) && !paperForms;
  const completed = useRef(false);

  useEffect(() => {
    if (!allSigned) completed.current = false;
    else if (fresh && !completed.current) {
      completed.current = true;
      onComplete();
    }
  }, [allSigned, fresh, onComplete]);

  useEffect(() => {
    headingRef.current?.focus();
  }, [active]);

  if (steps.length === 0) return <p>{t('legal.stepper.noLegalDocumentsNeedYour')}</p>;
  const step = steps[Math.min(active, steps.length - 1)];
  const goNext = () => {
    const next = steps.findIndex((s, i) => i > active && !stepSigned(s));
    if (next >= 0) setActive(next);
  };

  return (
    <div className={styles.layout}>
      <nav aria-label={t('legal.stepper.legalDocuments')}>
        <ol className={styles.steps}>
          {steps.map((s, i) => {
            const done = stepSigned(s);
            const declined = s.documents.some((d) => d.signature?.outcome === 'paper_forms');
            const reachable = done || i === firstOpen || i === active;
            return (
              <li key={s.documents[0].id}>
                <button
                  type="button"
                  className={styles.stepButton}
                  aria-current={i === active ? 'step' : undefined}
                  disabled={!reachable}
                  onClick={() => setActive(i)}
                >
                  <span className={done ? styles.done : styles.todo} aria-hidden="true">
                    {declined ? '✉' : done ? '✓' : i + 1}
                  </span>
                  {stepTitle(s)}
                  <span className="visually-hidden">
                    {declined
                      ? t('legal.stepper.statePaper')
                      : done
                        ? t('legal.stepper.stateSigned')
                        : t('legal.stepper.stateToSign')}
                  </span>
                </button>
              </li>
            );
          })}
        </ol>
        {active !== 0 ? (
          <Button variant="link" onClick={() => setActive(0)}>
            {t('legal.stepper.backToTheFirstDocument')}
          </Button>
        ) : null}
      </nav>
      <section className={styles.step} aria-labelledby="legal-step-heading">
        <h2 id="legal-step-heading" ref={headingRef} tabIndex={-1} className={styles.heading}>
          {stepTitle(step)}
        </h2>
        {step.documents.map((d) => (
          // Once signed, the signed PDF below is the copy to keep.
          <DocumentText key={d.id} document={d} offerCopy={!stepSigned(step)} />
        ))}
        <SsnMismatchPanel
          onCleared={() => {
            setRound((r) => r + 1);
            setActive(0);
          }}
        />
        {paperForms ? (
          <PaperFormsNotice consentDocumentId={paperForms.id} onUndone={() => setActive(0)} />
        ) : stepSigned(step) ? (
          <SignedStep step={step} />
        ) : (
          <StepForm
            key={`${round}-${step.documents[0].id}`}
            step={step}
            location={location}
            onSigned={goNext}
            onFailed={onFailed}
          />
        )}
      </section>
    </div>
  );
}

/** The document itself, standalone: nothing of ours is mixed into its text; and a copy to keep. */
function DocumentText({ document: d, offerCopy }: { document: LegalDocument; offerCopy: boolean }) {
  const content = useDocumentContent(d.id);
  if (content.isError) return <p role="alert">{errorMessageOf(content.error)}</p>;
  if (!content.data) return <p>{t('legal.stepper.loadingTheDocument')}</p>;
  const text = content.data;
  return (
    <>
      <article
        className={styles.document}
        // A scrollable region must be reachable from the keyboard (axe: scrollable-region-focusable).
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
        aria-label={text.title}
        // The server sanitized this HTML (no scripts, handlers or external resources).
        dangerouslySetInnerHTML={{ __html: text.content }}
      />
      {offerCopy ? (
        <div className={styles.copy}>
          <Button
            variant="secondary"
            // The rights step shows several notices: each button names its own.
            aria-label={t('legal.stepper.downloadCopy', { title: text.title })}
            onClick={() => downloadDocumentCopy(text, `${printNameOf(d.type.documentType)}-v${text.version}.html`)}
          >
            {t('legal.stepper.downloadACopy')}
          </Button>
        </div>
      ) : null}
    </>
  );
}

function SignedStep({ step }: { step: LegalStep }) {
  return (
    <div className={styles.signed}>
      <p>
        {t('legal.stepper.signedOn', {
          date: new Date(step.documents[0].signature?.createdAt ?? '').toLocaleString('en-US'),
        })}
      </p>
      {step.documents.map((d) => (
        <Button
          key={d.id}
          variant="secondary"
          onClick={() =>
            downloadSignedPdf(d.id, `${printNameOf(d.type.documentType)}-signed.pdf`).catch((e) =>
              notify(errorMessageOf(e), 'error'),
            )
          }
        >
          {step.documents.length > 1
            ? t('legal.stepper.downloadSignedOf', { title: d.title })
            : t('legal.stepper.downloadSigned')}
        </Button>
      ))}
    </div>
  );
}

/** The e-sign consent was declined: the order waits for paper forms, until the applicant changes their mind. */
function PaperFormsNotice({ consentDocumentId, onUndone }: { consentDocumentId: number; onUndone: () => void }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const undo = async () => {
    setBusy(true);
    try {
      await deleteSignature(consentDocumentId);
      await queryClient.invalidateQueries({ queryKey: ['legal-documents'] });
      onUndone();
    } catch (error) {
      notify(errorMessageOf(error), 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className={styles.paper} role="status">
      <h3>{t('legal.stepper.youChosePaperForms')}</h3>
      <p>{t('legal.stepper.yourScreeningIsOnHold')}</p>
      <p>{t('legal.stepper.changedYourMindYouCan')}</p>
      <Button variant="secondary" disabled={busy} onClick={() => void undo()}>
        {t('legal.stepper.signElectronicallyInstead')}
      </Button>
    </div>
  );
}

type StepFormProps = { step: LegalStep; location: Location; onSigned: () => void; onFailed?: (error: unknown) => void };

function StepForm({ step, location, onSigned, onFailed }: StepFormProps) {
  const applicant = useCurrentUser()?.subject;
  // The server checks typed names against the names of the invitation.
  const names = { firstName: applicant?.firstName ?? '', lastName: applicant?.lastName ?? '' };
  const form = useMemo(() => stepForm(step, location), [step, location]);
  const [values, setValues] = useState<StepValues>({});
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const [declining, setDeclining] = useState(false);
  const sign = useSignLegalStep();
  const queryClient = useQueryClient();
  const errors = validateStep(form, values, names);
  const valid = Object.keys(errors).length === 0;
  const todo = stillToDo(form, errors, names);
  const todoId = `legal-todo-${step.documents[0].id}`;

  const set = (name: string, value: string | boolean) => {
    setValues((v) => ({ ...v, [name]: value }));
    setServerErrors((e) => ({ ...e, [name]: '' }));
  };
  // A message that appears on blur moves what is below it. When the blur comes
  // from pressing another control (a checkbox below), the release would land
  // beside it and the click be lost; so a blur during a press shows its
  // message once the press is over and its click delivered.
  const pressing = useRef(false);
  const touchedDuringPress = useRef<string[]>([]);
  useEffect(() => {
    const down = () => {
      pressing.current = true;
    };
    const up = () => {
      pressing.current = false;
      const names = touchedDuringPress.current.splice(0);
      if (names.length === 0) return;
      // After the click that follows this pointerup in the same task.
      setTimeout(() => setTouched((t) => ({ ...t, ...Object.fromEntries(names.map((n) => [n, true])) })), 0);
    };
    window.addEventListener('pointerdown', down, true);
    window.addEventListener('pointerup', up, true);
    window.addEventListener('pointercancel', up, true);
    return () => {
      window.removeEventListener('pointerdown', down, true);
      window.removeEventListener('pointerup', up, true);
      window.removeEventListener('pointercancel', up, true);
    };
  }, []);
  const touch = (name: string) => {
    if (pressing.current) touchedDuringPress.current.push(name);
    else setTouched((t) => ({ ...t, [name]: true }));
  };
  const errorOf = (name: string) => serverErrors[name] || (touched[name] ? errors[name] : undefined);

  const submit = async (fields: StepValues) => {
    setMessage('');
    try {
      const hashes: Record<string, string> = {};
      for (const d of step.documents) {
        hashes[String(d.id)] = (await queryClient.ensureQueryData(documentContentQueryOptions(d.id))).contentSha256;
      }
      await sign.mutateAsync({ documentId: step.documents[0].id, contentSha256: hashes, fields });
      if (fields.declineESign) {
        // The applicant stays on the consent step, where the choice can be undone.
        notify(t('legal.stepper.paperFormsRequestedYourScreening'), 'info');
        return;
      }
      notify(t('legal.stepper.documentSigned'), 'success');
      onSigned();
    } catch (error) {
      if (error instanceof ApiError && error.errorFields.length > 0) {
        setServerErrors(Object.fromEntries(error.errorFields.map((f) => [f.field, f.message])));
      }
      raiseSsnMismatchFrom(error);
      setMessage(errorMessageOf(error));
      onFailed?.(error);
    }
  };

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    setTouched(Object.fromEntries(Object.keys({ ...errors, ...values }).map((k) => [k, true])));
    if (!valid) return;
    if (form.dotRelease && values.noSSN !== true) {
      const stored = applicant?.personalInformation?.ssnLastFour ?? '';
      if (stored && !checkLastFourSSN(String(values.lastFourSSN ?? ''), stored)) {
        // On the field, once; the panel above says what to do about it.
        setServerErrors((e) => ({ ...e, lastFourSSN: ssnMismatchMessage }));
        return;
      }
    }
    const fields: StepValues = { ...values };
    if (form.signature) fields.signature = String(values.signature);
    void submit(fields);
  };

  return (
    <form
      className={styles.form}
      onSubmit={onSubmit}
      noValidate
      aria-label={t('legal.stepper.signStep', { title: stepTitle(step) })}
    >
      {form.help ? <p className={styles.help}>{form.help}</p> : null}
      {form.names ? (
        <div className={styles.row}>
          {(['firstName', 'lastName'] as const).map((name) => (
            <TextField
              key={name}
              label={name === 'firstName' ? t('legal.stepper.nameLabelFirst') : t('legal.stepper.nameLabelLast')}
              autoComplete={name === 'firstName' ? 'given-name' : 'family-name'}
              value={String(values[name] ?? '')}
              error={errorOf(name)}
              onChange={(e) => set(name, e.target.value)}
              onBlur={() => touch(name)}
            />
          ))}
        </div>
      ) : null}
      {form.dotRelease ? (
        <>
          <Checkbox name="noSSN" label={t('legal.stepper.iDoNotHaveA')} values={values} set={set} touch={touch} />
          {values.noSSN === true ? (
            <div className={styles.row}>
              <TextField
                label={t('legal.stepper.countryThatIssuedYourIdentification')}
                value={String(values.identificationCountry ?? '')}
                error={errorOf('identificationCountry')}
                onChange={(e) => set('identificationCountry', e.target.value)}
                onBlur={() => touch('identificationCountry')}
              />
              <TextField
                label={t('legal.stepper.identificationNumber')}
                value={String(values.identificationNumber ?? '')}
                error={errorOf('identificationNumber')}
                onChange={(e) => set('identificationNumber', e.target.value)}
                onBlur={() => touch('identificationNumber')}
              />
            </div>
          ) : (
            <TextField
              label={t('legal.stepper.lastFourDigitsOfYour')}
              inputMode="numeric"
              maxLength={4}
              autoComplete="off"
              value={String(values.lastFourSSN ?? '')}
              error={errorOf('lastFourSSN')}
              onChange={(e) => set('lastFourSSN', e.target.value.replace(/\D/g, ''))}
              onBlur={() => touch('lastFourSSN')}
            />
          )}
        </>
      ) : null}
      {form.checkboxes.map((box) => (
        <Checkbox
          key={box.name}
          name={box.name}
          label={box.label}
          values={values}
          set={set}
          touch={touch}
          error={errorOf(box.name)}
        />
      ))}
      {form.signature ? (
        <SignaturePad
          label={t('legal.stepper.yourSignature')}
          name={`${names.firstName} ${names.lastName}`.trim()}
          error={errorOf('signature')}
          onChange={(dataUrl) => {
            // "Please sign" only once a signature was there and is gone (cleared), not before the pad was used.
            if (!dataUrl && values.signature) touch('signature');
            set('signature', dataUrl);
          }}
        />
      ) : null}
      {message ? (
        <p role="alert" className={styles.alert}>
          {message}
        </p>
      ) : null}
      <div className={styles.actions}>
        <Button type="submit" disabled={!valid || sign.isPending} aria-describedby={todo ? todoId : undefined}>
          {sign.isPending
            ? t('legal.stepper.signing')
            : form.signature
              ? t('legal.stepper.sign')
              : t('legal.stepper.agree')}
        </Button>
        {todo ? (
          <p id={todoId} className={styles.stillToDo}>
            {todo}
          </p>
        ) : null}
        {step.documentType === 'e_sign' ? (
          declining ? (
            <div role="group" aria-label={t('legal.stepper.confirmPaperForms')} className={styles.confirm}>
              <p>{t('legal.stepper.withoutElectronicConsentYouSign')}</p>
              <Button variant="secondary" onClick={() => void submit({ declineESign: true })}>
                {t('legal.stepper.yesSendMePaperForms')}
              </Button>
              <Button variant="link" onClick={() => setDeclining(false)}>
                {t('legal.stepper.noSignElectronically')}
              </Button>
            </div>
          ) : (
            <Button variant="link" onClick={() => setDeclining(true)}>
              {t('legal.stepper.iDoNotConsentSend')}
            </Button>
          )
        ) : null}
      </div>
    </form>
  );
}

type CheckboxProps = {
  name: string;
  label: string;
  values: StepValues;
  set: (name: string, value: boolean) => void;
  touch: (name: string) => void;
  error?: string;
};

function Checkbox({ name, label, values, set, touch, error }: CheckboxProps) {
  const id = `legal-${name}`;
  return (
    <div className={styles.checkbox}>
      <input
        id={id}
        type="checkbox"
        checked={values[name] === true}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => set(name, e.target.checked)}
        onBlur={() => touch(name)}
      />
      <label htmlFor={id}>{label}</label>
      {error ? (
        <p id={`${id}-error`} className={styles.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
