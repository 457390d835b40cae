// /aliases "Other Names": every other name the applicant has used, or the
// explicit answer that there is none (an empty list is an answer too).
import '@/features/history/lib/messages';
import { useMemo, useRef } from 'react';
import { useFieldArray } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { DateField } from '@/components/ui/date-field';
import { Fieldset } from '@/components/ui/fieldset';
import { Select } from '@/components/ui/select';
import { TextField } from '@/components/ui/text-field';
import { useCurrentUser } from '@/lib/current-user';
import { useAppForm } from '@/lib/form';
import { shownError } from '@/lib/shown-error';
import { t } from '@/lib/i18n';
import { useSuffixes } from '@/lib/lookups';
import { historyQueries, saveAliases, type AliasesAnswer } from '../api/history-api';
import { emptyAlias, MAX_ALIASES, toAliases, toAliasRow, type AliasValues } from '../lib/alias-rules';
import { useQuietNewRows } from '../lib/quiet-rows';
import { aliasSchema } from '../lib/schemas';
import { useHistorySave } from '../lib/use-history-save';
import { SaveActions, type SaveIntent } from './save-actions';
import styles from './history.module.css';

type AliasesFormProps = {
  initial: AliasesAnswer;
  /** After a save: the page moves on when the applicant asked to continue. */
  onSaved?: (intent: SaveIntent) => void;
  /** Today, for the rules' "not in the future" (tests fix it). */
  today?: Date;
};

const typeOptions = () =>
  [
    ['maiden', t('history.alias.type.maiden')],
    ['previous', t('history.alias.type.previous')],
    ['nickname', t('history.alias.type.nickname')],
    ['other', t('history.alias.type.other')],
  ] as const;

export function AliasesForm({ initial, onSaved, today }: AliasesFormProps) {
  const user = useCurrentUser()?.subject;
  const suffixes = useSuffixes();
  const schema = useMemo(
    () =>
      aliasSchema({
        today: today ?? new Date(),
        // As the server: the account's name and the personal information's are both current.
        currentNames: [user, user?.personalInformation].map((n) => ({
          firstName: n?.firstName ?? '',
          lastName: n?.lastName ?? '',
        })),
      }),
    [today, user],
  );
  const defaults = useMemo<AliasValues>(
    () => ({
      // A saved empty list is the answer "no other names"; a first visit starts with one name to fill.
      noOtherNames: initial.saved && initial.aliases.length === 0,
      aliases: initial.aliases.length ? initial.aliases.map(toAliasRow) : initial.saved ? [] : [emptyAlias()],
    }),
    // The form is filled once, from the answer the page waited for.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  const form = useAppForm(schema, { defaultValues: defaults, shouldFocusError: false });
  const errorOf = useQuietNewRows(form);
  const { register, watch, formState } = form;
  const rows = useFieldArray({ control: form.control, name: 'aliases' });
  const noOtherNames = watch('noOtherNames');
  const values = watch('aliases');
  const { formRef, intent, summary, onSubmit } = useHistorySave(form, {
    save: (data) => saveAliases(toAliases(data)),
    draftKey: 'aliases',
    queryKey: historyQueries.aliases().queryKey,
    saved: t('history.alias.saved'),
    saveFailed: t('history.alias.saveFailed'),
    onSaved,
  });
  const addRef = useRef<HTMLButtonElement>(null);

  const nameOf = (i: number) =>
    [values?.[i]?.firstName, values?.[i]?.lastName]
      .map((s) => s?.trim())
      .filter(Boolean)
      .join(' ') || t('history.alias.nameN', { n: i + 1 });

  return (
    <form
      ref={formRef}
      className={styles.form}
      onSubmit={(e) => {
        void onSubmit(e);
      }}
      noValidate
      aria-label={t('history.alias.title')}
    >
      {summary}
      <p>{t('history.alias.intro')}</p>
      <Checkbox
        label={t('history.alias.noOtherNames')}
        error={shownError(form, 'noOtherNames')}
        {...register('noOtherNames', {
          onChange: (event: { target: { checked: boolean } }) => {
            // Untick with nothing listed: give the applicant a name to fill.
            if (!event.target.checked && rows.fields.length === 0) rows.append(emptyAlias(), { shouldFocus: false });
          },
        })}
      />
      {noOtherNames ? null : (
        <>
          {rows.fields.map((field, i) => (
            <Fieldset key={field.id} legend={t('history.alias.nameN', { n: i + 1 })}>
              <div className={styles.fields}>
                <Select
                  label={t('history.alias.typeLabel')}
                  placeholder={t('history.alias.chooseType')}
                  required
                  error={errorOf(field.id, `aliases.${i}.type`)}
                  {...register(`aliases.${i}.type` as const)}
                >
                  {typeOptions().map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </Select>
                <TextField
                  label={t('history.alias.firstName')}
                  required
                  error={errorOf(field.id, `aliases.${i}.firstName`)}
                  {...register(`aliases.${i}.firstName` as const)}
                />
                <TextField
                  label={t('history.alias.middleName')}
                  optional
                  error={errorOf(field.id, `aliases.${i}.middleName`)}
                  {...register(`aliases.${i}.middleName` as const)}
                />
                <TextField
                  label={t('history.alias.lastName')}
                  required
                  error={errorOf(field.id, `aliases.${i}.lastName`)}
                  {...register(`aliases.${i}.lastName` as const)}
                />
                <Select
                  label={t('history.alias.suffix')}
                  optional
                  placeholder={t('history.alias.none')}
                  error={errorOf(field.id, `aliases.${i}.suffix`)}
                  {...register(`aliases.${i}.suffix` as const)}
                >
                  {(suffixes.data ?? []).map((s) => (
                    <option key={s.code} value={s.code}>
                      {s.name}
                    </option>
                  ))}
                </Select>
                <div />
                <DateField
                  kind="month"
                  label={t('history.alias.fromLabel')}
                  optional
                  error={errorOf(field.id, `aliases.${i}.from`)}
                  {...register(`aliases.${i}.from` as const)}
                />
                <DateField
                  kind="month"
                  label={t('history.alias.toLabel')}
                  optional
                  error={errorOf(field.id, `aliases.${i}.to`)}
                  {...register(`aliases.${i}.to` as const)}
                />
                <div className={styles.rowActions}>
                  <Button
                    variant="link"
                    // The visible word starts the name (label in name); the row's name says which one goes.
                    aria-label={t('history.alias.removeName', { name: nameOf(i) })}
                    onClick={() => {
                      rows.remove(i);
                      addRef.current?.focus();
                    }}
                  >
                    {t('history.alias.remove')}
                  </Button>
                </div>
              </div>
            </Fieldset>
          ))}
          {rows.fields.length < MAX_ALIASES ? (
            <div>
              <Button ref={addRef} variant="secondary" onClick={() => rows.append(emptyAlias())}>
                {t('history.alias.add')}
              </Button>
            </div>
          ) : (
            <p>{t('history.alias.max', { n: MAX_ALIASES })}</p>
          )}
        </>
      )}
      <SaveActions submitting={formState.isSubmitting} intent={intent} />
    </form>
  );
}
