// What a failed save shows at the top of a history form (the personal form's
// pattern): after a submit the client's rules refused, a summary linking to
// each field in error (focused, a new one per attempt); after a save the
// server refused, its messages under the page's failure text, and links to
// the fields it named (applyServerErrors put the messages on them and focused
// the first). A field leaves the summary once its message is gone.
import { useState } from 'react';
import type { FieldErrors } from 'react-hook-form';
import { ErrorSummary } from '@/components/ui/alert';
import type { ServerErrors } from '@/lib/form';

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
