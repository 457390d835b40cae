// Drafts on the server (issue 25): what the applicant types into a form is
// kept as a draft a moment after typing stops, so a closed tab or another
// device loses nothing. One hook for every form:
//   const draft = useServerDraft('personal', form);
// restores the server's draft over the saved values (the restored fields
// are dirty), sends only the fields changed since the last draft save
// (~800 ms after the last change), retries a failed save, and asks before
// leaving only while changes could not be saved. Fields are the form's
// top-level values (a list such as addresses travels whole, so added and
// removed rows are part of the draft); a field back at its saved value is
// removed from the draft (null). The server seals drafts; nothing is kept
// in the browser's storage.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';
import { useBlocker } from 'react-router';
import { api, ApiError } from './api-client';
import { registerDraftFlush } from './draft-flush';
import { queryClient } from './query-client';

export type DraftFields = Record<string, unknown>;
export type ServerDraft = { form: string; fields: DraftFields; updatedAt: string; expiresAt: string };

/** How long after the last change the draft is saved. */
export const DRAFT_DELAY_MS = 800;
/** How long a failed draft save waits before it is tried again. */
export const DRAFT_RETRY_MS = 5000;

const draftsPath = 'api/v2/user/drafts';
const draftPath = (form: string) => `${draftsPath}/${encodeURIComponent(form)}`;

export const draftsQuery = () =>
  queryOptions({
    queryKey: ['drafts'],
    queryFn: async () => (await api.get<{ payload: { drafts: ServerDraft[] } }>(draftsPath)).payload.drafts,
    // Read once per page visit: the form itself is the live copy afterwards.
    staleTime: 0,
    gcTime: 0,
  });

/** keepalive: sent while the page unloads, so the browser finishes the request after the tab is gone. */
const keepalive: typeof fetch = (input, init) => fetch(input, { ...init, keepalive: true });

export const saveDraft = (form: string, fields: DraftFields, options: { unloading?: boolean } = {}) =>
  api.put<{ payload: { updatedAt: string } }>(
    draftPath(form),
    { fields },
    options.unloading ? { transport: keepalive } : undefined,
  );

export const deleteDraft = (form: string) => api.delete<void>(draftPath(form));

export type DraftStatus = 'idle' | 'pending' | 'saving' | 'saved' | 'failed';

export type DraftOptions<T extends FieldValues> = {
  /** Field names kept under this prefix: two forms of one page share one draft (account). */
  prefix?: string;
  /** Fields never sent (passwords, confirmation copies). */
  exclude?: Array<Path<T>>;
  /** False while the form is not ready (its saved values still loading). */
  enabled?: boolean;
};

export type ServerDraftState<T extends FieldValues = FieldValues> = {
  status: DraftStatus;
  /** When the draft was last saved (or restored from), for "Draft saved at 10:42". */
  savedAt: Date | null;
  /** The page shows a draft from the server (restored, or saved here). */
  hasDraft: boolean;
  retry: () => void;
  /** Deletes the server's draft and puts the saved values back. */
  discard: () => Promise<void>;
  /** After the form's own save (which deleted the draft on the server): the saved values are the new baseline. */
  submitted: (values?: T) => void;
  /** Stops draft saves while the form submits, so no save recreates the draft just deleted. */
  pause: () => void;
  /** After a failed submit: draft saves go on. */
  resume: () => void;
};

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export function useServerDraft<T extends FieldValues>(
  formKey: string,
  form: UseFormReturn<T>,
  options: DraftOptions<T> = {},
): ServerDraftState<T> {
  const { prefix = '', exclude = [], enabled = true } = options;
  const drafts = useQuery({ ...draftsQuery(), enabled });
  const [status, setStatus] = useState<DraftStatus>('idle');
  const [savedAt, setSavedAt] = useState<Date | null>(null);
  const [hasDraft, setHasDraft] = useState(false);
  const excluded = useRef(new Set<string>(exclude));
  // baseline: the saved values, as the form starts (the applicant may type before the drafts
  // arrive); sent: what the server's draft holds per field.
  const [initial] = useState(() => withoutExcluded(form.formState.defaultValues as DraftFields, exclude));
  const baseline = useRef<DraftFields>(initial);
  const sent = useRef<DraftFields>({});
  const ready = useRef(false);
  const paused = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const ownFields = useCallback((values: DraftFields) => withoutExcluded(values, [...excluded.current]), []);

  // Restore once the drafts are there.
  useEffect(() => {
    if (ready.current || !enabled || !drafts.isFetched) return;
    ready.current = true;
    const mine = drafts.data?.find((d) => d.form === formKey);
    if (!mine) return;
    let any = false;
    const typed = form.formState.dirtyFields as Record<string, unknown>;
    for (const [key, value] of Object.entries(mine.fields)) {
      if (!key.startsWith(prefix)) continue;
      const name = key.slice(prefix.length);
      if (excluded.current.has(name) || !(name in baseline.current)) continue;
      sent.current[name] = value;
      // What was typed on this visit before the draft arrived wins; the next save sends it.
      if (typed[name]) continue;
      form.setValue(name as Path<T>, value as PathValue<T, Path<T>>, { shouldDirty: true });
      any = true;
    }
    if (any) {
      setHasDraft(true);
      setSavedAt(new Date(mine.updatedAt));
      setStatus('saved');
    }
  }, [enabled, drafts.isFetched, drafts.data, formKey, prefix, form]);

  const flush = useCallback(
    async (unloading = false) => {
      clearTimeout(timer.current);
      if (!ready.current || paused.current) return;
      // A copy: getValues() hands out the form's own objects, which later typing changes in place; kept
      // as sent, a list (the addresses) would then always equal what is typed, and never be sent again.
      const values = structuredClone(ownFields(form.getValues() as DraftFields));
      const changes: DraftFields = {};
      for (const [name, value] of Object.entries(values)) {
        const wanted = same(value, baseline.current[name]) ? undefined : value;
        if (!same(wanted, sent.current[name])) changes[prefix + name] = wanted ?? null;
      }
      if (Object.keys(changes).length === 0) {
        setStatus((s) => (s === 'pending' || s === 'failed' ? (hasDraftNow(sent.current) ? 'saved' : 'idle') : s));
        return;
      }
      setStatus('saving');
      try {
        const res = await saveDraft(formKey, changes, { unloading });
        if (paused.current) return;
        for (const [key, value] of Object.entries(changes)) {
          const name = key.slice(prefix.length);
          if (value === null) delete sent.current[name];
          else sent.current[name] = value;
        }
        const left = hasDraftNow(sent.current);
        setHasDraft(left);
        setSavedAt(new Date(res.payload.updatedAt));
        setStatus(left ? 'saved' : 'idle');
      } catch (error) {
        if (paused.current) return;
        setStatus('failed');
        // Offline, a timeout, a server away: tried again by itself. A refusal (the form locked, too
        // large) would only be refused again: it waits for Retry now or the form's own save.
        if (!refused(error)) timer.current = setTimeout(() => void flush(), DRAFT_RETRY_MS);
      }
    },
    [form, formKey, prefix, ownFields],
  );

  useEffect(() => {
    const subscription = form.watch(() => {
      if (!ready.current || paused.current) return;
      clearTimeout(timer.current);
      setStatus((s) => (s === 'failed' ? s : 'pending'));
      timer.current = setTimeout(() => void flush(), DRAFT_DELAY_MS);
    });
    return () => subscription.unsubscribe();
  }, [form, flush]);

  // Leaving: a change still waiting for its moment is sent at once (a
  // keepalive request outlives the tab); an in-app move sends it as the form
  // unmounts. Only changes that could not be saved make the page ask.
  useEffect(() => {
    const onLeave = (event: BeforeUnloadEvent) => {
      if (status === 'pending') void flush(true);
      if (status === 'failed') {
        event.preventDefault();
        // Older browsers show the question only with a returnValue.
        event.returnValue = '';
      }
    };
    window.addEventListener('beforeunload', onLeave);
    return () => window.removeEventListener('beforeunload', onLeave);
  }, [status, flush]);
  // The session's end sends what waits, before the logout (lib/session-timeout.ts).
  useEffect(() => registerDraftFlush(() => flush()), [flush]);
  const pending = useRef(false);
  pending.current = status === 'pending';
  useEffect(
    () => () => {
      if (pending.current) void flush();
    },
    [flush],
  );

  const submitted = useCallback(
    (values?: T) => {
      clearTimeout(timer.current);
      baseline.current = ownFields((values ?? form.getValues()) as DraftFields);
      sent.current = {};
      paused.current = false;
      setHasDraft(false);
      setStatus('idle');
      void queryClient.invalidateQueries({ queryKey: ['drafts'] });
    },
    [form, ownFields],
  );

  const discard = useCallback(async () => {
    clearTimeout(timer.current);
    paused.current = true;
    try {
      if (prefix) {
        // A shared draft: only this form's fields go.
        const nulls = Object.fromEntries(Object.keys(sent.current).map((name) => [prefix + name, null]));
        if (Object.keys(nulls).length) await saveDraft(formKey, nulls);
      } else {
        await deleteDraft(formKey);
      }
    } finally {
      paused.current = false;
    }
    sent.current = {};
    form.reset(baseline.current as T);
    setHasDraft(false);
    setStatus('idle');
  }, [form, formKey, prefix]);

  return {
    status,
    savedAt,
    hasDraft,
    retry: () => void flush(),
    discard,
    submitted,
    pause: () => {
      clearTimeout(timer.current);
      paused.current = true;
    },
    resume: () => {
      paused.current = false;
      void flush();
    },
  };
}

function refused(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 && ![408, 429].includes(error.status);
}

function withoutExcluded(values: DraftFields | undefined, exclude: readonly string[]): DraftFields {
  return Object.fromEntries(Object.entries(values ?? {}).filter(([name]) => !exclude.includes(name)));
}

const hasDraftNow = (fields: DraftFields) => Object.keys(fields).length > 0;

/** Asks before an in-app move while the draft could not be saved (the page renders the question). */
export function useDraftLeaveGuard(status: DraftStatus) {
  return useBlocker(
    ({ currentLocation, nextLocation }) => status === 'failed' && currentLocation.pathname !== nextLocation.pathname,
  );
}
