// One PDF form as an accessible web form: its fields read from the template
// (pdf-lib), the design system's controls, the answers checked on submit, and
// beside them (below on phones) a live preview. Submit fills the template and
// sends it; a refusal shows in an alert and nothing typed is lost.
import '@/features/pdf-forms/lib/messages';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { DateField } from '@/components/ui/date-field';
import { RadioGroup } from '@/components/ui/radio-group';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { TextAreaField, TextField } from '@/components/ui/text-field';
import { ApiError, errorMessageOf } from '@/lib/api-client';
import { useAppForm } from '@/lib/form';
import { useFailedSave } from '@/lib/failed-save';
import { t } from '@/lib/i18n';
import { useKeepFocusOnPress } from '@/lib/keep-focus';
import { useStates, type LookupItem } from '@/lib/lookups';
import { shownError } from '@/lib/shown-error';
import { useCurrentUser } from '@/lib/current-user';
import { useSubject } from '@/lib/subject';
import { knownDataOf, prefillFields } from '../lib/known-values';
import { afterSubmit, fetchSubmitted, fetchTemplate, submitForm, type PdfForm } from '../api/pdf-forms';
import { initialValues, keyOf, pdfFormSchema, valuesByName, type PdfFormValues } from '../lib/form-values';
import {
  fillPdf,
  NoFormFieldsError,
  readPdfFields,
  type PdfFieldDescriptor,
  type PdfFieldValue,
} from '../lib/pdf-fields';
import { stateChoices } from '../lib/state-choices';
import { formatDate } from './format-date';
import { PdfPreview } from './pdf-preview';
import styles from './pdf-forms.module.css';

export const templateQuery = (id: number) =>
  queryOptions({
    queryKey: ['fillable-pdf-form-template', id],
    queryFn: async () => {
      const template = await fetchTemplate(id);
      return { template, fields: await readPdfFields(template) };
    },
    // A template does not change while the page is open; a PDF without fields does not get better.
    staleTime: Infinity,
    retry: (count, error) =>
      !(error instanceof NoFormFieldsError) && !(error instanceof ApiError && error.status < 500) && count < 2,
  });

/**
 * The answers of the copy sent last, by PDF field name: "Fill in again" starts from them rather than
 * from a blank form. Nothing when there is none or it cannot be read (then the form starts blank).
 */
export const previousAnswersQuery = (form: PdfForm) =>
  queryOptions({
    queryKey: ['fillable-pdf-form-submitted', form.id, form.submitted?.sha256 ?? null],
    queryFn: async (): Promise<Record<string, PdfFieldValue>> => {
      if (!form.submitted) return {};
      try {
        const fields = await readPdfFields(await fetchSubmitted(form.id));
        return Object.fromEntries(fields.map((field) => [field.name, field.value]));
      } catch {
        return {};
      }
    },
    staleTime: Infinity,
  });

type FormEditorProps = {
  form: PdfForm;
  /** Back to the list: with the form as sent after a submit, without when the applicant leaves. */
  onClose: (sent?: PdfForm) => void;
};

export function FormEditor({ form, onClose }: FormEditorProps) {
  const template = useQuery(templateQuery(form.id));
  // The form as it was when opened: a submit from here updates it just before the editor closes,
  // which is no reason to read the copy just sent.
  const [opened] = useState(form);
  const previous = useQuery(previousAnswersQuery(opened));
  // Read before the fields show, so that a state dropdown does not change its words under the applicant.
  const states = useStates();
  // Ask once: what the portal knows (the personal information, the current address) fills the
  // fields that ask for it. Without the address (it failed to load) the rest is still filled.
  const user = useCurrentUser();
  const subject = useSubject();
  const addresses = subject.data?.addresses;
  const known = useMemo(() => knownDataOf({ subject: user?.subject, addresses }), [user, addresses]);
  // The template's fields, each starting from the answer sent last, but a consent (a required
  // checkbox): that is given again, by a tick of the applicant's own; then, where still empty,
  // from what the portal knows.
  const fields = useMemo(() => {
    if (!template.data || !previous.data) return undefined;
    const answers = previous.data;
    const withAnswers = template.data.fields.map((field) =>
      field.name in answers && !(field.kind === 'checkbox' && field.required)
        ? { ...field, value: answers[field.name] }
        : field,
    );
    const stateName = (code: string) => states.data?.find((s) => s.code === code)?.name ?? '';
    return prefillFields(withAnswers, known, stateName);
  }, [template.data, previous.data, known, states.data]);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);

  let body;
  if (template.isError) {
    const noFields = template.error instanceof NoFormFieldsError;
    body = (
      <Alert focusOnMount>
        <p>
          {noFields ? template.error.message : t('forms.editor.loadFailed', { reason: errorMessageOf(template.error) })}
        </p>
        {noFields ? null : (
          <Button variant="secondary" onClick={() => void template.refetch()}>
            {t('common.tryAgain')}
          </Button>
        )}
      </Alert>
    );
  } else if (!template.data || !fields || states.isPending || subject.isPending) {
    body = <Skeleton lines={8} label={t('forms.editor.loading')} />;
  } else {
    body = (
      <EditorForm
        form={form}
        template={template.data.template}
        fields={fields}
        states={states.data ?? []}
        onClose={onClose}
      />
    );
  }
  return (
    <div className={styles.editor}>
      <div className={styles.editorHead}>
        <Button variant="link" onClick={() => onClose()}>
          <span aria-hidden="true">← </span>
          {t('forms.editor.back')}
        </Button>
        <h2 ref={headingRef} tabIndex={-1} className={styles.editorTitle}>
          {form.title}
        </h2>
        {form.description ? <p className={styles.muted}>{form.description}</p> : null}
        {form.submitted ? (
          <p>{t('forms.editor.resubmitNote', { date: formatDate(form.submitted.submittedAt) })}</p>
        ) : null}
      </div>
      {body}
    </div>
  );
}

/**
 * A choice's words: the PDF's export value, made readable when it is a code ("in_person" → "In person");
 * a hyphen is kept, as words have them ("Non-commercial").
 */
const optionLabel = (option: string) => {
  if (!option.includes('_') && option !== option.toLowerCase()) return option;
  const words = option.replace(/_+/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : option;
};

function FieldControl({
  field,
  index,
  form,
  states,
}: {
  field: PdfFieldDescriptor;
  index: number;
  form: UseFormReturn<PdfFormValues>;
  states: LookupItem[];
}) {
  const name = keyOf(index);
  const error = shownError(form, name);
  const registration = form.register(name);
  // Marked while it holds what the portal filled in; once changed, it is the applicant's own answer.
  const value = useWatch({ control: form.control, name });
  const hint = field.prefilled && value === field.value ? t('forms.editor.prefilled') : undefined;
  const common = { label: field.label, hint, required: field.required, optional: !field.required, error };
  const usStates = field.kind === 'dropdown' ? stateChoices(field.options ?? [], states) : null;
  if (usStates) {
    return (
      <Select {...common} placeholder={t('forms.editor.chooseAState')} {...registration}>
        {usStates.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Select>
    );
  }
  switch (field.kind) {
    case 'checkbox':
      return (
        <Checkbox
          // Unmarked either way: a box may be left unticked, and aria-required names the one that may not.
          label={field.label}
          error={error}
          aria-required={field.required || undefined}
          className={styles.wide}
          {...registration}
        />
      );
    case 'radio':
      return (
        <RadioGroup
          legend={field.label}
          error={error}
          required={field.required}
          className={styles.wide}
          options={(field.options ?? []).map((o) => ({ value: o, label: optionLabel(o) }))}
          {...registration}
        />
      );
    case 'dropdown':
      return (
        <Select {...common} placeholder={t('forms.editor.choose')} {...registration}>
          {(field.options ?? []).map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </Select>
      );
    case 'date':
      return <DateField {...common} {...registration} />;
    case 'multiline':
      return <TextAreaField {...common} className={styles.wide} maxLength={field.maxLength} {...registration} />;
    default:
      return <TextField {...common} maxLength={field.maxLength} {...registration} />;
  }
}

function EditorForm({
  form: pdfForm,
  template,
  fields,
  states,
  onClose,
}: {
  form: PdfForm;
  template: ArrayBuffer;
  fields: PdfFieldDescriptor[];
  states: LookupItem[];
  onClose: (sent?: PdfForm) => void;
}) {
  const client = useQueryClient();
  const schema = useMemo(() => pdfFormSchema(fields), [fields]);
  const form = useAppForm(schema, { defaultValues: initialValues(fields), shouldFocusError: false });
  const values = useWatch({ control: form.control }) as PdfFormValues;
  const answers = useMemo(() => valuesByName(fields, values), [fields, values]);
  // The summary says the question (a radio group's legend, not its first choice).
  const failed = useFailedSave(form, { labelOf: (f) => fields[Number(f.name.slice(1))]?.label ?? f.label });
  useKeepFocusOnPress(failed.formRef);
  const [refused, setRefused] = useState<{ message: string; attempt: number } | null>(null);

  const onSubmit = form.handleSubmit(
    async (data) => {
      failed.clear();
      setRefused(null);
      try {
        const filled = await fillPdf(template, valuesByName(fields, data));
        const answer = await submitForm(pdfForm.id, filled, pdfForm.code);
        await afterSubmit(client, answer);
        onClose(answer.form);
      } catch (error) {
        // 422 (the file), 413, 415, 409: the server's own sentence; the answers stay as typed.
        const message =
          error instanceof ApiError && error.errorFields.length
            ? error.errorFields.map((f) => f.message).join(' ')
            : errorMessageOf(error);
        setRefused((last) => ({ message, attempt: (last?.attempt ?? 0) + 1 }));
      }
    },
    (errors) => {
      setRefused(null);
      failed.onInvalid(errors);
    },
  );

  return (
    <div className={styles.editorBody}>
      <form
        ref={failed.formRef}
        className={styles.form}
        onSubmit={(e) => void onSubmit(e)}
        noValidate
        aria-label={pdfForm.title}
      >
        <ErrorSummary key={failed.attempt} {...failed.summary} />
        {refused ? (
          <Alert key={refused.attempt} title={t('forms.editor.submitFailed')} focusOnMount>
            <p>{refused.message}</p>
          </Alert>
        ) : null}
        <p>{t('forms.editor.intro')}</p>
        <div className={styles.fields}>
          {fields.map((field, i) => (
            <FieldControl key={field.name} field={field} index={i} form={form} states={states} />
          ))}
        </div>
        <div className={styles.actions}>
          <Button type="submit" loading={form.formState.isSubmitting}>
            {t('forms.editor.submit')}
          </Button>
          <Button variant="secondary" disabled={form.formState.isSubmitting} onClick={() => onClose()}>
            {t('forms.editor.back')}
          </Button>
        </div>
      </form>
      <PdfPreview template={template} values={answers} title={pdfForm.title} />
    </div>
  );
}
