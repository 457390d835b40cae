// The per-employer DOT releases (issue 10; 49 CFR 40.25): one release for
// each DOT-regulated employer of the employment history, never a blanket
// one. Shown on the employment page and the hub; signable during setup and
// after it, until the profile is submitted. Each release is signed in a
// dialog that shows the release as the server renders it for that employer
// (its text names the employer, so the signed hash does too).
import '@/features/legal/lib/messages';
import { useMemo, useRef, useState, type RefObject } from 'react';
import { Link } from 'react-router';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose } from '@/components/ui/dialog';
import { RadioGroup } from '@/components/ui/radio-group';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { errorMessageOf } from '@/lib/api-client';
import { useCurrentUser } from '@/lib/current-user';
import { useFailedSave } from '@/lib/failed-save';
import { useAppForm } from '@/lib/form';
import { notify } from '@/lib/notifications';
import { useSubject, type DotRelease } from '@/lib/subject';
import { downloadSignedPdf } from '../api/download-signed-pdf';
import { useDocumentContent } from '../api/get-document-content';
import { useSignDotRelease } from '../api/sign-legal-step';
import { headingsBelow } from '@/lib/document-html';
import {
  releaseForm,
  stepDefaults,
  stepFields,
  stepSchema,
  stillToDo,
  validateStep,
  type StepValues,
} from './step-fields';
import { DocumentSignature, useDocumentSignature } from './document-signature';
import { knownIdentity, prefilledOf } from '../lib/known-identity';
import { DotIdentityFields, NameFields, type FieldRegistration } from './release-identity-fields';
import legalTextStyles from './legal-text.module.css';
import stepperStyles from './legal-stepper.module.css';
import styles from './signed-documents.module.css';
import { t } from '@/lib/i18n';
import { textLang } from '../lib/text-language';
import { currentLocale } from '@/lib/locale';

/** Where a signed release is printed: the DOT release print page, at that employer's release. */
export function releasePrintHref(entryId: string): string {
  return `${paths.print.getHref('dot_release')}#release-${entryId}`;
}

const viewLinkId = (entryId: string) => `dot-release-view-${entryId}`;

const employerOf = (r: Pick<DotRelease, 'employerName'>) => r.employerName || t('legal.dot.employerUnnamed');

/** The applicant's DOT releases with their state; nothing when no DOT-regulated employer is listed. */
export function DotReleaseList() {
  const subject = useSubject();
  const [signing, setSigning] = useState<DotRelease | null>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  const signedNow = useRef<string | null>(null);
  // Where the closing dialog puts the focus, asked as it closes: after a signature the Sign button is
  // gone (the focus would fall to the page's start), so the new "View and print" link of that release,
  // else the section's heading.
  const returnFocus = useMemo<RefObject<HTMLElement | null>>(
    () => ({
      get current() {
        const signed = signedNow.current;
        if (!signed) return opener.current;
        return document.getElementById(viewLinkId(signed)) ?? document.getElementById('dot-releases-title');
      },
    }),
    [],
  );
  if (subject.isError) {
    return (
      <Alert>
        <p>{errorMessageOf(subject.error)}</p>
      </Alert>
    );
  }
  if (!subject.data) return <Skeleton lines={3} label={t('legal.dot.loading')} />;
  const releases = subject.data.dotReleases ?? [];
  if (releases.length === 0) return null;
  return (
    <section className={styles.section} aria-labelledby="dot-releases-title">
      <h2 id="dot-releases-title" className={styles.heading} tabIndex={-1}>
        {t('legal.dot.heading')}
      </h2>
      <p>{t('legal.dot.intro')}</p>
      <ul className={styles.list}>
        {releases.map((r) => {
          const employer = employerOf(r);
          return (
            <li key={r.entryId} className={styles.item}>
              <div className={styles.title}>{employer}</div>
              <div className={styles.meta}>
                {r.signed && r.signedAt
                  ? t('legal.dot.signedOn', {
                      date: new Date(r.signedAt).toLocaleDateString(currentLocale(), { dateStyle: 'long' }),
                    })
                  : t('legal.dot.notSigned')}
              </div>
              <div className={styles.actions}>
                {r.signed ? (
                  <>
                    <Link
                      id={viewLinkId(r.entryId)}
                      className={styles.link}
                      to={releasePrintHref(r.entryId)}
                      aria-label={t('legal.dot.viewAndPrintFor', { employer })}
                    >
                      {t('legal.dot.viewAndPrint')}
                    </Link>
                    <Button
                      variant="link"
                      aria-label={t('legal.dot.downloadSignedPdfFor', { employer })}
                      onClick={() =>
                        downloadSignedPdf(r.documentId, `dot-release-${r.entryId}-signed.pdf`, r.entryId).catch((e) =>
                          notify(errorMessageOf(e), 'error'),
                        )
                      }
                    >
                      {t('legal.dot.downloadSignedPdf')}
                    </Button>
                  </>
                ) : (
                  <Button
                    variant="secondary"
                    aria-label={t('legal.dot.signFor', { employer })}
                    onClick={(event) => {
                      opener.current = event.currentTarget;
                      signedNow.current = null;
                      setSigning(r);
                    }}
                  >
                    {t('legal.dot.sign')}
                  </Button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      <Dialog
        open={signing !== null}
        onOpenChange={(open) => {
          if (!open) setSigning(null);
        }}
        title={signing ? t('legal.dot.dialogTitle', { employer: employerOf(signing) }) : ''}
        returnFocusTo={returnFocus}
      >
        {signing ? (
          <ReleaseSigning
            key={signing.entryId}
            release={signing}
            onSigned={() => {
              signedNow.current = signing.entryId;
              setSigning(null);
            }}
          />
        ) : null}
      </Dialog>
    </section>
  );
}

/** One release: its text for that employer, then the form that signs it. */
function ReleaseSigning({ release, onSigned }: { release: DotRelease; onSigned: () => void }) {
  const content = useDocumentContent(release.documentId, false, release.entryId);
  const applicant = useCurrentUser()?.subject;
  // The server checks typed names against the names of the invitation.
  const firstName = applicant?.firstName ?? '';
  const lastName = applicant?.lastName ?? '';
  const names = useMemo(() => ({ firstName, lastName }), [firstName, lastName]);
  const form = useMemo(() => releaseForm(), []);
  const schema = useMemo(() => stepSchema(form, names), [form, names]);
  // Ask once: the names, and the SSN's last four digits or the identification, as the portal knows them.
  const known = useMemo(() => knownIdentity(applicant), [applicant]);
  const prefilled = prefilledOf(known);
  const stepForm = useAppForm<StepValues>(schema, { defaultValues: stepDefaults(form, known) });
  const {
    register,
    handleSubmit,
    setValue,
    clearErrors,
    watch,
    formState: { errors, isSubmitted },
  } = stepForm;
  const failed = useFailedSave(stepForm);
  const signature = useDocumentSignature(() => {
    setValue('signature', '');
    clearErrors('signature');
  });
  const sign = useSignDotRelease();
  const values = watch();
  const ruleErrors = validateStep(form, signature.checked(values), names);
  const valid = Object.keys(ruleErrors).length === 0;
  const todo = stillToDo(form, ruleErrors, names);
  const todoId = `dot-release-todo-${release.entryId}`;
  const errorOf = (name: string) => errors[name]?.message;
  const field: FieldRegistration = (name, sanitize) => {
    const registered = register(name);
    return {
      ...registered,
      onChange: (event) => {
        if (sanitize) event.target.value = sanitize(event.target.value);
        return registered.onChange(event);
      },
    };
  };
  const employer = employerOf(release);

  const onSubmit = handleSubmit(async (submitted) => {
    if (!content.data) return;
    failed.clear();
    try {
      await sign.mutateAsync({
        documentId: release.documentId,
        instance: release.entryId,
        contentSha256: content.data.contentSha256,
        fields: stepFields(form, submitted),
      });
      signature.signed(submitted.signature);
      notify(t('legal.dot.signed', { employer }), 'success');
      onSigned();
    } catch (error) {
      failed.onServerError(error);
    }
  });

  if (content.isError) {
    return (
      <Alert>
        <p>{errorMessageOf(content.error)}</p>
      </Alert>
    );
  }
  if (!content.data) return <Skeleton lines={8} label={t('legal.dot.loadingTheRelease')} />;
  return (
    <>
      <article
        className={`${stepperStyles.document} ${legalTextStyles.legalText}`}
        aria-label={content.data.title}
        {...textLang(content.data.language)}
        // The server sanitized this HTML; its headings move below the dialog's h2.
        dangerouslySetInnerHTML={{ __html: headingsBelow(content.data.content, 2) }}
      />
      <form
        ref={failed.formRef}
        className={stepperStyles.form}
        onSubmit={(event) => {
          signature.press((adopted) => setValue('signature', adopted));
          void onSubmit(event);
        }}
        noValidate
        aria-label={t('legal.dot.signFor', { employer })}
      >
        <ErrorSummary key={failed.attempt} {...failed.summary} />
        <RadioGroup
          legend={t('legal.dot.question')}
          required
          options={[
            { value: 'yes', label: t('legal.dot.yes') },
            { value: 'no', label: t('legal.dot.no') },
          ]}
          error={errorOf('testedPositiveOrRefused')}
          {...register('testedPositiveOrRefused')}
        />
        <NameFields field={field} errorOf={errorOf} prefilled={prefilled.names} />
        <DotIdentityFields field={field} errorOf={errorOf} noSSN={values.noSSN === true} prefilled={prefilled} />
        <DocumentSignature
          choice={signature}
          error={errorOf('signature')}
          onChange={(dataUrl) => setValue('signature', dataUrl, { shouldDirty: true, shouldValidate: isSubmitted })}
        />
        <div className={stepperStyles.actions}>
          <Button type="submit" disabled={!valid} loading={sign.isPending} aria-describedby={todo ? todoId : undefined}>
            {sign.isPending ? t('legal.stepper.signing') : t('legal.signature.signThisDocument')}
          </Button>
          {todo ? (
            <p id={todoId} className={stepperStyles.stillToDo}>
              {todo}
            </p>
          ) : null}
          <DialogClose asChild>
            <Button variant="link">{t('legal.dot.cancel')}</Button>
          </DialogClose>
        </div>
      </form>
    </>
  );
}
