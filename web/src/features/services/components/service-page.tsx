// A service-driven data page (/education, /employment, /credential,
// /professional): the fields of every service of the page's alias, several
// entries, and for some aliases the choice of having nothing to report.
import '@/features/services/lib/messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState, type ReactNode } from 'react';
import { useFieldArray, useWatch } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import buttonStyles from '@/components/ui/button.module.css';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { EmptyState } from '@/components/ui/empty-state';
import { Fieldset } from '@/components/ui/fieldset';
import { ApiError, errorMessageOf } from '@/lib/api-client';
import { useAppForm } from '@/lib/form';
import { DraftStatus } from '@/components/draft-status/draft-status';
import { useFailedSave } from '@/lib/failed-save';
import { useServerDraft } from '@/lib/server-draft';
import { shownError } from '@/lib/shown-error';
import { useKeepFocusOnPress } from '@/lib/keep-focus';
import { t } from '@/lib/i18n';
import { messagesOf } from '@/lib/messages-of';
import { useCountries, useStates, type Country, type LookupItem } from '@/lib/lookups';
import { notify } from '@/lib/notifications';
import {
  aliasFields,
  invalidateSubject,
  nextPagePath,
  pathAfterSave,
  subjectQueries,
  useServices,
  useSubject,
  type DataAlias,
  type FieldDefinition,
  type ServiceEntry,
} from '@/lib/subject';
import {
  saveServiceData,
  saveServiceProfile,
  subjectDataQuery,
  type ServicesBody,
  type SubjectDataDoc,
} from '../api/services-api';
import { blankEntry, entryForForm, entryForSave, entryName } from '../lib/fields';
import { localToday, MAX_ENTRIES, wordsOf, type ServicePageWords } from '../lib/pages';
import { isRequired, isVisible } from '@/lib/field-rules';
import { serviceSchema, type ServiceFormValues } from '../lib/service-schema';
import { ServiceField } from './service-field';
import { CoverageBar } from '@/components/coverage-bar/coverage-bar';
import { monthIndex } from '@/lib/months';
import { entryPeriods, gapValues, periodFieldsOf } from '../lib/timeline';
import styles from './service-form.module.css';

export const serviceMessages = messagesOf({
  saved: 'services.save.saved',
  failed: 'services.save.failed',
  draftSaved: 'services.save.draftSaved',
  draftFailed: 'services.save.draftFailed',
});

/** The look-back period a page's coverage bar shows: from this month ("YYYY-MM") to today. */
export type ServiceTimeline = { coverageStart: string };

type ServicePageProps = {
  alias: DataAlias;
  /** Shows the entries' months over the look-back period as a coverage bar (/employment). */
  timeline?: ServiceTimeline;
  /** Shown under the form (the employment page's DOT releases). */
  footer?: ReactNode;
};

/**
 * After a save of /employment that leaves a DOT release unsigned: the applicant stays, is told why (the
 * checklist, and its count, grew by a release when `added`) and is offered the release below at once;
 * once every release is signed, the way on.
 */
function DotReleaseNotice({ added }: { added: boolean }) {
  const subject = useSubject();
  const { search } = useLocation();
  const data = subject.data;
  if (!data) return null;
  const unsigned = data.dotReleases.filter((r) => !r.signed);
  if (unsigned.length === 0) {
    const next = nextPagePath(data.pages, 'employment', search);
    const page = data.pages.find((p) => p.path === next);
    return (
      <Alert tone="success" title={t('services.dot.allSigned')}>
        <div className={styles.noticeAction}>
          <Link className={`${buttonStyles.button} ${buttonStyles.primary}`} to={next}>
            {page ? t('services.dot.continue', { title: page.title }) : t('services.dot.review')}
          </Link>
        </div>
      </Alert>
    );
  }
  const required = data.pages.filter((p) => p.required);
  const employers = unsigned.map((r) => r.employerName || t('services.dot.unnamed')).join(', ');
  return (
    <Alert tone="info" focusOnMount title={t('services.dot.title', { employers })}>
      <p>
        {added
          ? t('services.dot.added', {
              employers,
              done: required.filter((p) => p.complete).length,
              total: required.length,
            })
          : t('services.dot.stillToSign', { employers })}
      </p>
      <div className={styles.noticeAction}>
        <Button
          variant="secondary"
          onClick={() => {
            const heading = document.getElementById('dot-releases-title');
            heading?.scrollIntoView({ block: 'start' });
            heading?.focus();
          }}
        >
          {t('services.dot.goToRelease')}
        </Button>
      </div>
    </Alert>
  );
}

/** The page's form once the definitions, the saved data and the lookups are there. */
export function ServicePage({ alias, footer, timeline }: ServicePageProps) {
  const words = wordsOf(alias);
  const services = useServices();
  const data = useQuery({ ...subjectDataQuery(), refetchOnMount: 'always' });
  const states = useStates();
  const countries = useCountries();
  const fields = useMemo(() => aliasFields(services.data ?? [], alias), [services.data, alias]);
  // Set by a save that leaves a DOT release to sign: whether that save added one.
  const [releaseAdded, setReleaseAdded] = useState<boolean | null>(null);
  const needs = { states: fields.some((f) => f.type === 'state'), countries: fields.some((f) => f.type === 'country') };
  const queries = [services, data, ...(needs.states ? [states] : []), ...(needs.countries ? [countries] : [])];

  const failed = queries.find((q) => q.isError);
  let body: ReactNode;
  if (failed) {
    body = (
      <Alert>
        {/* Spec section 8 names this failure (services, required fields, in-flight data) 'Error fetching document Ids'. */}
        <p>{t('errors.documentIds')}</p>
        <p>{t('services.form.retrieveFailed', { title: words.title, reason: errorMessageOf(failed.error) })}</p>
        <Button variant="secondary" onClick={() => queries.forEach((q) => q.isError && void q.refetch())}>
          {t('common.tryAgain')}
        </Button>
      </Alert>
    );
  } else if (queries.some((q) => !q.data) || !data.isFetchedAfterMount) {
    body = <p role="status">{t('services.form.loading')}</p>;
  } else if (fields.length === 0) {
    body = <EmptyState title={t('services.form.none', { title: words.title })} />;
  } else {
    body = (
      <ServiceForm
        // One page's form (and its draft) never carries over to another's.
        key={alias}
        alias={alias}
        words={words}
        fields={fields}
        saved={data.data!}
        states={states.data ?? []}
        countries={countries.data ?? []}
        onReleasesToSign={setReleaseAdded}
        timeline={timeline}
      />
    );
  }
  return (
    <>
      {body}
      {releaseAdded === null ? null : (
        <div className={styles.footer}>
          <DotReleaseNotice added={releaseAdded} />
        </div>
      )}
      {footer ? <div className={styles.footer}>{footer}</div> : null}
    </>
  );
}

type ServiceFormProps = {
  alias: DataAlias;
  words: ServicePageWords;
  fields: FieldDefinition[];
  saved: SubjectDataDoc;
  states: LookupItem[];
  countries: Country[];
  /** A save of /employment left DOT releases to sign; `added`: that save added one. */
  onReleasesToSign: (added: boolean) => void;
  timeline?: ServiceTimeline;
};

/** The server names a field `{alias}.{index}.{api}`; the form names it `entries.{index}.{api}`. */
function renamedErrors(error: unknown, alias: string): unknown {
  if (!(error instanceof ApiError)) return error;
  const errorFields = error.errorFields.map(({ field, message }) => ({
    field: field.startsWith(`${alias}.`)
      ? `entries.${field.slice(alias.length + 1)}`
      : field === `noDataAvailable.${alias}`
        ? 'noData'
        : field,
    message,
  }));
  return new ApiError(error.status, { errorMessage: error.errorMessage, errorFields }, error.retryAfter);
}

function ServiceForm({ alias, words, fields, saved, states, countries, onReleasesToSign, timeline }: ServiceFormProps) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const { search } = useLocation();
  const checks = useMemo(
    () => ({
      today: localToday(),
      references: { states: states.map((s) => s.code), countries: countries.map((c) => c.countryCode) },
    }),
    [states, countries],
  );
  const schema = useMemo(() => serviceSchema(fields, checks), [fields, checks]);
  const defaults = useMemo((): ServiceFormValues => {
    const noData = Boolean(words.noData && saved.noDataAvailable?.[alias]);
    const entries = (saved.services?.[alias] ?? []).filter((e) => e.data_available !== false);
    return {
      noData,
      entries: entries.length ? entries.map((e) => entryForForm(fields, e)) : [blankEntry(fields)],
    };
    // The form is filled once; later values are the applicant's own.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const form = useAppForm(schema, { defaultValues: defaults, shouldFocusError: false });
  const { register, handleSubmit, setValue, getValues, control, formState } = form;
  const { isSubmitting } = formState;
  // keyName: each entry has its own "id" (the server's), which the array's keys must not replace.
  const list = useFieldArray({ control, name: 'entries', keyName: 'key' });
  const entries = useWatch({ control, name: 'entries' }) ?? [];
  const noData = useWatch({ control, name: 'noData' });

  const failed = useFailedSave(form, {
    // "Employer 2: End date": the field's own words (a radio group's, not its first option's), and which entry.
    labelOf: (f) => {
      const [, index, api] = /^entries\.(\d+)\.(.+)$/.exec(f.name) ?? [];
      const definition = api ? fields.find((d) => d.api === api) : undefined;
      return definition
        ? t('services.entry.named', { entry: words.entry(Number(index) + 1), name: definition.name })
        : f.label;
    },
  });
  useKeepFocusOnPress(failed.formRef);
  const addRef = useRef<HTMLButtonElement>(null);
  const [savingLater, setSavingLater] = useState(false);
  // Typed and not saved: the page's draft on the server; either save deletes it there.
  const draft = useServerDraft(`service:${alias}`, form);

  const bodyOf = (values: ServiceFormValues): ServicesBody => {
    const none = Boolean(words.noData && values.noData);
    return {
      services: { [alias]: none ? [{ data_available: false }] : values.entries.map((e) => entryForSave(fields, e)) },
      ...(words.noData ? { noDataAvailable: { [alias]: none } } : {}),
    };
  };

  /** New entries got their ids from the server: kept, so the next save names the same entries. */
  const keepIds = (doc: SubjectDataDoc, values: ServiceFormValues) => {
    if (values.noData) return;
    (doc.services?.[alias] ?? []).forEach((entry, i) => {
      if (entry.id && i < getValues('entries').length) setValue(`entries.${i}.id`, entry.id);
    });
  };

  const refuse = (error: unknown, failure: string) => failed.onServerError(renamedErrors(error, alias), { failure });

  const onSubmit = handleSubmit(async (values) => {
    failed.clear();
    const releasesOf = () => client.getQueryData(subjectQueries.subject().queryKey)?.dotReleases ?? [];
    const known = new Set(releasesOf().map((r) => r.entryId));
    let doc: SubjectDataDoc;
    draft.pause();
    try {
      doc = await saveServiceProfile(bodyOf(values));
    } catch (error) {
      draft.resume();
      refuse(error, serviceMessages.failed);
      return;
    }
    keepIds(doc, values);
    draft.submitted();
    notify(serviceMessages.saved, 'success');
    await invalidateSubject(client);
    const next = await pathAfterSave(client, alias, search);
    // A DOT-regulated employer needs its release signed: offered here, before anything else.
    const toSign = alias === 'employment' ? releasesOf().filter((r) => !r.signed) : [];
    if (toSign.length > 0) {
      onReleasesToSign(toSign.some((r) => !known.has(r.entryId)));
      return;
    }
    void navigate(next);
  }, failed.onInvalid);

  const saveLater = async () => {
    failed.clear();
    const values = getValues();
    setSavingLater(true);
    draft.pause();
    try {
      const doc = await saveServiceData(bodyOf(values));
      keepIds(doc, values);
      draft.submitted();
      notify(serviceMessages.draftSaved, 'success');
      void invalidateSubject(client);
    } catch (error) {
      draft.resume();
      refuse(error, serviceMessages.draftFailed);
    } finally {
      setSavingLater(false);
    }
  };

  return (
    <form ref={failed.formRef} className={styles.form} onSubmit={onSubmit} noValidate aria-label={words.title}>
      <ErrorSummary key={failed.attempt} {...failed.summary} />
      <DraftStatus draft={draft} />
      {words.noData ? (
        <Checkbox label={words.noData} error={shownError(form, 'noData')} {...register('noData')} />
      ) : null}
      {noData || !timeline ? null : (
        <EntriesTimeline
          fields={fields}
          entries={entries}
          coverageStart={timeline.coverageStart}
          addLabel={words.addForRange}
          onAddGap={
            list.fields.length < MAX_ENTRIES
              ? (values) => {
                  const first = fields.find((f) => f.type === 'text') ?? fields[0];
                  list.append(
                    { ...blankEntry(fields), ...values },
                    { focusName: `entries.${list.fields.length}.${first.api}` },
                  );
                }
              : undefined
          }
        />
      )}
      {noData
        ? null
        : list.fields.map((item, i) => {
            const values = entries[i] ?? {};
            const name = entryName(fields, values);
            const title = words.entry(i + 1);
            return (
              <Fieldset key={item.key} legend={name ? t('services.entry.named', { entry: title, name }) : title}>
                <div className={styles.fields}>
                  {fields
                    .filter((f) => isVisible(f, values))
                    .map((f) => (
                      <ServiceField
                        key={f.api}
                        field={f}
                        className={
                          f.type === 'textarea' || f.type === 'checkbox' || f.type === 'radio' ? styles.wide : undefined
                        }
                        registration={register(`entries.${i}.${f.api}`)}
                        required={isRequired(f, values)}
                        error={shownError(form, `entries.${i}.${f.api}`)}
                        states={states}
                        countries={countries}
                      />
                    ))}
                </div>
                {list.fields.length > 1 ? (
                  <div className={styles.entryActions}>
                    <Button
                      variant="secondary"
                      onClick={() => {
                        list.remove(i);
                        addRef.current?.focus();
                      }}
                    >
                      {words.remove(i + 1)}
                    </Button>
                  </div>
                ) : null}
              </Fieldset>
            );
          })}
      {noData || list.fields.length >= MAX_ENTRIES ? null : (
        <div>
          <Button ref={addRef} variant="secondary" onClick={() => list.append(blankEntry(fields))}>
            {words.add}
          </Button>
        </div>
      )}
      <div className={styles.actions}>
        <Button type="submit" loading={isSubmitting} disabled={savingLater}>
          {t('services.form.saveAndContinue')}
        </Button>
        <Button variant="secondary" loading={savingLater} disabled={isSubmitting} onClick={() => void saveLater()}>
          {t('services.form.saveForLater')}
        </Button>
      </div>
    </form>
  );
}

/** The entries' months over the look-back period; a gap's button adds an entry for exactly its months. */
function EntriesTimeline({
  fields,
  entries,
  coverageStart,
  addLabel,
  onAddGap,
}: {
  fields: FieldDefinition[];
  entries: ServiceEntry[];
  coverageStart: string;
  addLabel?: (range: string) => string;
  onAddGap?: (values: ServiceEntry) => void;
}) {
  const period = useMemo(() => periodFieldsOf(fields), [fields]);
  const start = monthIndex(coverageStart);
  if (!period || Number.isNaN(start) || !addLabel) return null;
  const today = localToday();
  const thisMonth = monthIndex(today.slice(0, 7));
  return (
    <CoverageBar
      periods={entryPeriods(entries, period, thisMonth)}
      start={start}
      end={thisMonth}
      addLabel={addLabel}
      overlapLabel={t('services.timeline.overlap')}
      onAddGap={onAddGap ? (gap) => onAddGap(gapValues(period, gap.from, gap.to, today)) : undefined}
    />
  );
}
