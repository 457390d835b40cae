// The save of a history page (addresses, other names), with what a failed save shows at the top of the
// form (lib/failed-save.ts); its summary names each field with the title of its group in front.
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useRef } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { DraftStatus } from '@/components/draft-status/draft-status';
import { ErrorSummary, type SummaryField } from '@/components/ui/alert';
import { useFailedSave } from '@/lib/failed-save';
import { useServerDraft } from '@/lib/server-draft';
import { useKeepFocusOnPress } from '@/lib/keep-focus';
import { notify } from '@/lib/notifications';
import { invalidateSubject } from '@/lib/subject';
import type { SaveIntent } from '../components/save-actions';

/**
 * "Other name 2: Last name": every row of a list has a "Last name", and the summary's link must say
 * which one it leads to.
 */
function withGroup(field: { id: string; label: string }): string {
  const legend = document
    .getElementById(field.id)
    ?.closest('fieldset:not([data-field])')
    ?.querySelector('legend')?.textContent;
  return legend ? `${legend}: ${field.label}` : field.label;
}

/**
 * The save of a history page: the form's submit puts what the server answered into the page's query
 * and refreshes the checklist, or shows why it failed; nothing typed is lost, the messages go onto
 * the fields they name. `intent` says which of the two saves was pressed (components/save-actions).
 * What is typed and not saved is kept as the page's server draft (`draftKey`, lib/server-draft.ts),
 * whose state shows under the summary; either save deletes it on the server.
 */
export function useHistorySave<V extends FieldValues, A>(
  form: UseFormReturn<V>,
  options: {
    save: (values: V) => Promise<A>;
    /** The page's draft on the server: 'aliases' or 'addresses'. */
    draftKey: string;
    queryKey: QueryKey;
    saved: string;
    saveFailed: string;
    onSaved?: (intent: SaveIntent) => void;
    /** Problems of the list as a whole (a gap in the addresses), each linked to what fixes it: first in the summary. */
    listProblems?: SummaryField[];
  },
) {
  const client = useQueryClient();
  const failed = useFailedSave(form, { labelOf: withGroup });
  useKeepFocusOnPress(failed.formRef);
  const intent = useRef<SaveIntent>('continue');
  const draft = useServerDraft(options.draftKey, form);
  const onSubmit = form.handleSubmit(async (data) => {
    failed.clear();
    draft.pause();
    try {
      const answer = await options.save(data);
      // The save deleted the draft on the server.
      draft.submitted(data);
      client.setQueryData(options.queryKey, answer);
      void invalidateSubject(client);
      notify(options.saved, 'success');
      options.onSaved?.(intent.current);
    } catch (error) {
      // Each message once: on its field (focused), or in the summary when no shown field fits.
      draft.resume();
      failed.onServerError(error, { failure: options.saveFailed });
    }
  }, failed.onInvalid);
  const summary = (
    <>
      <ErrorSummary
        key={failed.attempt}
        {...failed.summary}
        fields={[...(options.listProblems ?? []), ...failed.summary.fields]}
      />
      <DraftStatus draft={draft} />
    </>
  );
  return { formRef: failed.formRef, intent, summary, onSubmit };
}
