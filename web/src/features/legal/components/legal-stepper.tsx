// The legal part of setup (spec sections 2 and 4): where the applicant
// lives, then each applicable document in order, read as a standalone
// document and signed with the step's form below it.
import '@/features/legal/lib/messages';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessageOf } from '@/lib/api-client';
import { useFailedSave } from '@/lib/failed-save';
import { useAppForm } from '@/lib/form';
import { raiseSsnMismatchFrom } from '@/lib/app-events';
import { notify } from '@/lib/notifications';
import { useCurrentUser } from '@/lib/current-user';
import { useCounties } from '@/lib/lookups';
import { documentContentQueryOptions, useDocumentContent } from '../api/get-document-content';
import { useLegalDocuments } from '../api/get-legal-documents';
import { downloadDocumentCopy } from '../api/download-document-copy';
import { downloadSignedPdf } from '../api/download-signed-pdf';
import { deleteSignature, useSignLegalStep } from '../api/sign-legal-step';
import { useSetLocation, useSubjectLocation } from '../api/subject-location';
import {
  countiesWithNotices,
  legalSteps,
  printNameOf,
  stepSigned,
  type LegalDocument,
  type LegalStep,
  type Location,
} from '../lib/legal-steps';
import { headingsBelow } from '@/lib/document-html';
import { checkLastFourSSN, ssnMismatchMessage } from '../lib/ssn-check';
import { knownIdentity, prefilledOf } from '../lib/known-identity';
import { DocumentSignature, useDocumentSignature } from './document-signature';
import { DotIdentityFields, NameFields } from './release-identity-fields';
import { LocationForm } from './location-form';
import { SsnMismatchPanel } from './ssn-mismatch-panel';
import {
  stepDefaults,
  stepFields,
  stepForm,
  stepSchema,
  stillToDo,
  validateStep,
  type StepValues,
} from './step-fields';
import legalTextStyles from './legal-text.module.css';
import styles from './legal-stepper.module.css';
import { t } from '@/lib/i18n';
import { textLang } from '../lib/text-language';
import { currentLocale } from '@/lib/locale';

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
      <Alert>
        <p>{errorMessageOf(documents.error ?? location.error, t('errors.documentIds'))}</p>
      </Alert>
    );
  }
  if (!documents.data || !location.data) {
    return <Skeleton lines={6} label={t('legal.stepper.loadingYourLegalDocuments')} />;
  }
  const loc = location.data;
  if (!loc.residency.nonUs && !loc.residency.state)
    return <LocationQuestion documents={documents.data} location={loc} />;
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

/**
 * Where the applicant lives, and where they will work when the employer did
 * not say; the county only in a state where one of the company's notices
 * depends on it.
 */
function LocationQuestion({ documents, location }: { documents: LegalDocument[]; location: Location }) {
  const setLocation = useSetLocation();
  const counties = useCounties();
  const all = counties.data;
  const countiesIn = useCallback((state: string) => countiesWithNotices(documents, all ?? [], state), [documents, all]);
  // Without the counties list (it failed to load) the states are still asked:
  // better a question without the county than none at all.
  if (counties.isPending) return <Skeleton lines={4} label={t('legal.stepper.loadingYourLegalDocuments')} />;
  const employment = location.employment;
  return (
    <LocationForm
      countiesIn={countiesIn}
      askEmployment={!employment.nonUs && !employment.state}
      onSubmit={(answer) => setLocation.mutateAsync(answer)}
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
      <nav aria-label={t('legal.stepper.legalDocuments')} className={styles.nav}>
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
          <Button variant="quiet" className={styles.back} onClick={() => setActive(0)}>
            {t('legal.stepper.backToTheFirstDocument')}
          </Button>
        ) : null}
      </nav>
      <section className={styles.step} aria-labelledby="legal-step-heading">
        {/* Below the wizard's h2 (the setup step): h3, and the documents' own headings below it. */}
        <h3 id="legal-step-heading" ref={headingRef} tabIndex={-1} className={styles.heading}>
          {stepTitle(step)}
        </h3>
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
  if (content.isError) {
    return (
      <Alert>
        <p>{errorMessageOf(content.error)}</p>
      </Alert>
    );
  }
  if (!content.data) return <Skeleton lines={8} label={t('legal.stepper.loadingTheDocument')} />;
  const text = content.data;
  return (
    <>
      <article
        // Part of the page, read in the page's one scroll (no box of its own to scroll on a phone).
        className={`${styles.document} ${legalTextStyles.legalText}`}
        aria-label={text.title}
        {...textLang(text.language)}
        // The server sanitized this HTML (no scripts, handlers or external resources);
        // its headings move below the step's h3.
        dangerouslySetInnerHTML={{ __html: headingsBelow(text.content, 3) }}
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
      <Alert tone="success">
        <p>
          {t('legal.stepper.signedOn', {
            date: new Date(step.documents[0].signature?.createdAt ?? '').toLocaleString(currentLocale()),
          })}
        </p>
      </Alert>
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
    <Alert tone="info" className={styles.paper}>
      <h4 className={styles.paperTitle}>{t('legal.stepper.youChosePaperForms')}</h4>
      <p>{t('legal.stepper.yourScreeningIsOnHold')}</p>
      <p>{t('legal.stepper.changedYourMindYouCan')}</p>
      <Button variant="secondary" loading={busy} onClick={() => void undo()}>
        {t('legal.stepper.signElectronicallyInstead')}
      </Button>
    </Alert>
  );
}

type StepFormProps = { step: LegalStep; location: Location; onSigned: () => void; onFailed?: (error: unknown) => void };

function StepForm({ step, location, onSigned, onFailed }: StepFormProps) {
  const applicant = useCurrentUser()?.subject;
  // The server checks typed names against the names of the invitation.
  const firstName = applicant?.firstName ?? '';
  const lastName = applicant?.lastName ?? '';
  const names = useMemo(() => ({ firstName, lastName }), [firstName, lastName]);
  const form = useMemo(() => stepForm(step, location), [step, location]);
  const schema = useMemo(() => stepSchema(form, names), [form, names]);
  // Ask once: what the portal knows starts filled in, marked, for the applicant to check.
  const known = useMemo(() => knownIdentity(applicant), [applicant]);
  const prefilled = prefilledOf(known);
  const appForm = useAppForm<StepValues>(schema, { defaultValues: stepDefaults(form, known) });
  const {
    register,
    handleSubmit,
    setValue,
    setError,
    clearErrors,
    getValues,
    getFieldState,
    watch,
    formState: { errors, isSubmitted },
  } = appForm;
  const failed = useFailedSave(appForm);
  const signature = useDocumentSignature(() => {
    setValue('signature', '');
    clearErrors('signature');
  });
  const [declining, setDeclining] = useState(false);
  const sign = useSignLegalStep();
  const queryClient = useQueryClient();
  const values = watch();
  // Every rule's message, touched or not: they decide the button and the line beside it.
  const ruleErrors = validateStep(form, signature.checked(values), names);
  const valid = Object.keys(ruleErrors).length === 0;
  const todo = stillToDo(form, ruleErrors, names);
  const todoId = `legal-todo-${step.documents[0].id}`;
  const afterPress = useAfterPress();

  /** register(), with the field's blur (which may show its message) held while a press is under way. */
  const field = (name: string, sanitize?: (value: string) => string) => {
    const registered = register(name);
    return {
      ...registered,
      onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
        if (sanitize) event.target.value = sanitize(event.target.value);
        return registered.onChange(event);
      },
      onBlur: (event: React.FocusEvent<HTMLInputElement>) => afterPress(() => void registered.onBlur(event)),
    };
  };
  const errorOf = (name: string) => errors[name]?.message;

  const submit = async (fields: StepValues) => {
    failed.clear();
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
      signature.signed(fields.signature);
      notify(t('legal.stepper.documentSigned'), 'success');
      onSigned();
    } catch (error) {
      failed.onServerError(error);
      raiseSsnMismatchFrom(error);
      onFailed?.(error);
    }
  };

  const onSubmit = handleSubmit(async (submitted) => {
    if (form.dotRelease && submitted.noSSN !== true) {
      const stored = applicant?.personalInformation?.ssnLastFour ?? '';
      if (stored && !checkLastFourSSN(String(submitted.lastFourSSN ?? ''), stored)) {
        // On the field, once; the panel above says what to do about it.
        setError('lastFourSSN', { type: 'server', message: ssnMismatchMessage() });
        return;
      }
    }
    await submit(stepFields(form, submitted));
  });

  return (
    <form
      ref={failed.formRef}
      className={styles.form}
      onSubmit={(event) => {
        if (form.signature) signature.press((adopted) => setValue('signature', adopted));
        void onSubmit(event);
      }}
      noValidate
      aria-label={t('legal.stepper.signStep', { title: stepTitle(step) })}
    >
      {/* A field in error took focus; the summary takes it only when none could. */}
      <ErrorSummary key={failed.attempt} {...failed.summary} />
      {form.help ? (
        <Alert tone="info" className={styles.help}>
          <p>{form.help}</p>
        </Alert>
      ) : null}
      {form.names ? <NameFields field={field} errorOf={errorOf} prefilled={prefilled.names} /> : null}
      {form.dotRelease ? (
        <DotIdentityFields field={field} errorOf={errorOf} noSSN={values.noSSN === true} prefilled={prefilled} />
      ) : null}
      {form.checkboxes.map((box) => (
        <Checkbox key={box.name} label={box.label} error={errorOf(box.name)} {...field(box.name)} />
      ))}
      {form.signature ? (
        <DocumentSignature
          choice={signature}
          error={errorOf('signature')}
          onChange={(dataUrl) => {
            const touched = getFieldState('signature').isTouched;
            // "Please sign" only once a signature was there and is gone (cleared), not before the pad was used.
            const cleared = !dataUrl && !!getValues('signature');
            setValue('signature', dataUrl, { shouldDirty: true, shouldValidate: touched || isSubmitted });
            if (cleared && !touched) {
              afterPress(() =>
                setValue('signature', getValues('signature'), { shouldTouch: true, shouldValidate: true }),
              );
            }
          }}
        />
      ) : null}
      <div className={styles.actions}>
        <Button type="submit" disabled={!valid} loading={sign.isPending} aria-describedby={todo ? todoId : undefined}>
          {sign.isPending
            ? t('legal.stepper.signing')
            : form.signature
              ? t('legal.signature.signThisDocument')
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
              <div className={styles.confirmActions}>
                <Button variant="secondary" onClick={() => void submit({ declineESign: true })}>
                  {t('legal.stepper.yesSendMePaperForms')}
                </Button>
                <Button variant="quiet" onClick={() => setDeclining(false)}>
                  {t('legal.stepper.noSignElectronically')}
                </Button>
              </div>
            </div>
          ) : (
            <Button variant="link" className={styles.decline} onClick={() => setDeclining(true)}>
              {t('legal.stepper.iDoNotConsentSend')}
            </Button>
          )
        ) : null}
      </div>
    </form>
  );
}

/**
 * A message that appears on blur moves what is below it. When the blur comes
 * from pressing another control (a checkbox below), the release would land
 * beside it and the click be lost; so `afterPress(show)` runs `show` at once,
 * or, during a press, once the press is over and its click delivered.
 */
function useAfterPress() {
  const pressing = useRef(false);
  const waiting = useRef<(() => void)[]>([]);
  useEffect(() => {
    const down = () => {
      pressing.current = true;
    };
    const up = () => {
      pressing.current = false;
      const run = waiting.current.splice(0);
      if (run.length === 0) return;
      // After the click that follows this pointerup in the same task.
      setTimeout(() => run.forEach((fn) => fn()), 0);
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
  return (fn: () => void) => {
    if (pressing.current) waiting.current.push(fn);
    else fn();
  };
}
