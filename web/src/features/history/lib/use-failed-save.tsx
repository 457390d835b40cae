// What a failed save shows at the top of a history form (the personal form's
// pattern): after a submit the client's rules refused, a summary linking to
// each field in error (focused, a new one per attempt); after a save the
// server refused, its messages under the page's failure text, and links to
// the fields it named (applyServerErrors put the messages on them and focused
// the first). A field leaves the summary once its message is gone.
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { FieldErrors, FieldValues, UseFormReturn } from 'react-hook-form';
import { ErrorSummary } from '@/components/ui/alert';
import { applyServerErrors, invalidFields, type ServerErrors } from '@/lib/form';
import { useKeepFocusOnPress } from '@/lib/keep-focus';
import { notify } from '@/lib/notifications';
import { invalidateSubject } from '@/lib/subject';
import type { SaveIntent } from '../components/save-actions';

/** The message of the field at `path` ("addresses.1.zip"), if any. */
export function errorAt(errors: FieldErrors, path: string): string | undefined {
  let node: unknown = errors;
  for (const key of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[key];
  const message = (node as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}

/**
 * The fields with the title of their group in front ("Other name 2: Last name"): every row of a list
 * has a "Last name", and the summary's link must say which one it leads to.
 */
function withGroup(fields: ServerErrors['fields']): ServerErrors['fields'] {
  return fields.map((field) => {
    const legend = document.getElementById(field.id)?.closest('fieldset')?.querySelector('legend')?.textContent;
    return legend ? { ...field, label: `${legend}: ${field.label}` } : field;
  });
}

export function useFailedSave(errors: FieldErrors) {
  const [refused, setRefused] = useState<ServerErrors>({ fields: [], messages: [] });
  const [invalid, setInvalid] = useState<{ fields: ServerErrors['fields']; attempt: number }>({
    fields: [],
    attempt: 0,
  });
  const stillRefused = refused.fields.filter((f) => errorAt(errors, f.name));
  const stillInvalid = invalid.fields.filter((f) => errorAt(errors, f.name));
  const summary =
    invalid.fields.length > 0 ? (
      <ErrorSummary key={invalid.attempt} fields={stillInvalid} focusOnMount />
    ) : (
      <ErrorSummary messages={refused.messages} fields={stillRefused} focusOnMount={refused.fields.length === 0} />
    );
  return {
    summary,
    clear() {
      setRefused({ fields: [], messages: [] });
      setInvalid((last) => ({ fields: [], attempt: last.attempt }));
    },
    /** The server refused: `failure` ("Error saving Other Names") heads its messages. */
    refused(result: ServerErrors, failure: string) {
      setRefused({
        fields: withGroup(result.fields),
        messages: result.messages.length ? result.messages.map((m) => `${failure}: ${m}`) : [failure],
      });
    },
    invalid(fields: ServerErrors['fields']) {
      setRefused({ fields: [], messages: [] });
      setInvalid((last) => ({ fields: withGroup(fields), attempt: last.attempt + 1 }));
    },
  };
}

/**
 * The save of a history page: the form's submit puts what the server answered into the page's query
 * and refreshes the checklist, or shows why it failed; nothing typed is lost, the messages go onto
 * the fields they name. `intent` says which of the two saves was pressed (components/save-actions).
 */
export function useHistorySave<V extends FieldValues, A>(
  form: UseFormReturn<V>,
  options: {
    save: (values: V) => Promise<A>;
    queryKey: QueryKey;
    saved: string;
    saveFailed: string;
    onSaved?: (intent: SaveIntent) => void;
  },
) {
  const client = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  useKeepFocusOnPress(formRef);
  const intent = useRef<SaveIntent>('continue');
  const failed = useFailedSave(form.formState.errors);
  const onSubmit = form.handleSubmit(
    async (data) => {
      failed.clear();
      try {
        client.setQueryData(options.queryKey, await options.save(data));
        void invalidateSubject(client);
        notify(options.saved, 'success');
        options.onSaved?.(intent.current);
      } catch (error) {
        // Each message once: on its field (focused), or in the summary when no shown field fits.
        failed.refused(applyServerErrors(error, form.setError, formRef.current), options.saveFailed);
      }
    },
    (errors) => failed.invalid(invalidFields(errors, formRef.current)),
  );
  return { formRef, intent, summary: failed.summary, onSubmit };
}
