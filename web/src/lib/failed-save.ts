// What a form shows after a failed save, the same on every form (GOV.UK's
// error summary, linked from lib/form.ts): after a submit the client's rules
// refused, a summary linking to each field in error, which takes focus (again
// at each attempt); after a save the server refused, its messages put on the
// fields they name (applyServerErrors focuses the first) and the rest in the
// summary, which takes focus only when no field did: focus leaving a field
// would check it again and wipe the server's message. A field leaves the
// summary once its message is gone. The form renders the summary itself:
//   <ErrorSummary key={failed.attempt} {...failed.summary} />
import { useRef, useState } from 'react';
import type { FieldErrors, FieldValues, UseFormReturn } from 'react-hook-form';
import { applyServerErrors, invalidFields, type ServerErrors } from './form-errors';

/**
 * The message of the field at `path` ("addresses.1.zip"), if it has one. Kept out of lib/form.ts and
 * ./form-errors, which /login loads, with the hook.
 */
export function errorAt(errors: FieldErrors, path: string): string | undefined {
  let node: unknown = errors;
  for (const key of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[key];
  const message = (node as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}

type SummaryField = ServerErrors['fields'][number];

type Failure = ServerErrors & { attempt: number; focus: boolean };

export type FailedSaveOptions = {
  /**
   * The words of a field's link, when its label alone does not say which field it is: every
   * entry of a list has an "End date" ("Employer 2: End date").
   */
  labelOf?: (field: SummaryField) => string;
};

export type ServerErrorOptions = {
  /** What failed ("Error saving Profile"): heads each of the server's messages, or stands alone above the fields. */
  failure?: string;
  /** The form shows the server's messages elsewhere: the summary lists the fields only. */
  fieldsOnly?: boolean;
};

export function useFailedSave<T extends FieldValues>(
  form: Pick<UseFormReturn<T>, 'setError' | 'formState'>,
  { labelOf }: FailedSaveOptions = {},
) {
  const formRef = useRef<HTMLFormElement>(null);
  const [failure, setFailure] = useState<Failure>({ fields: [], messages: [], attempt: 0, focus: false });
  const labelled = (fields: SummaryField[]) => (labelOf ? fields.map((f) => ({ ...f, label: labelOf(f) })) : fields);
  const { errors } = form.formState;

  return {
    /** The form the messages go on and the fields are looked up in. */
    formRef,
    /** The summary's key: each failure shows a new summary, which takes focus anew. */
    attempt: failure.attempt,
    summary: {
      messages: failure.messages,
      fields: failure.fields.filter((f) => errorAt(errors, f.name)),
      focusOnMount: failure.focus,
    },
    /** A new save begins: the last failure goes. */
    clear() {
      setFailure((last) => ({ fields: [], messages: [], attempt: last.attempt, focus: false }));
    },
    /** handleSubmit's second argument: the client's rules refused the submit. */
    onInvalid(fieldErrors: FieldErrors<T>) {
      const fields = labelled(invalidFields(fieldErrors, formRef.current));
      setFailure((last) => ({ fields, messages: [], attempt: last.attempt + 1, focus: true }));
    },
    /** The server refused the save: what applyServerErrors found, for a form that says more about it. */
    onServerError(error: unknown, { failure: failed, fieldsOnly = false }: ServerErrorOptions = {}): ServerErrors {
      const found = applyServerErrors(error, form.setError, formRef.current);
      let messages = found.messages;
      if (fieldsOnly) messages = [];
      else if (failed) messages = messages.length ? messages.map((m) => `${failed}: ${m}`) : [failed];
      const fields = labelled(found.fields);
      setFailure((last) => ({ fields, messages, attempt: last.attempt + 1, focus: fields.length === 0 }));
      return found;
    },
  };
}
