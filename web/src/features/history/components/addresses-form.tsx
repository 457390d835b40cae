// /addresses "Address History": the current address first, then the earlier
// ones, back to the start of the years the package asks for. The coverage
// (gaps, overlaps, how far back) is worked out as the applicant types, with
// the server's rules and messages; each address is checked against the
// address service when the applicant leaves its ZIP or postal code.
import '@/features/history/lib/messages';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useFieldArray, useWatch, type UseFormReturn } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { DateField } from '@/components/ui/date-field';
import { Fieldset } from '@/components/ui/fieldset';
import { Select } from '@/components/ui/select';
import { TextField } from '@/components/ui/text-field';
import { useAppForm } from '@/lib/form';
import { errorAt } from '@/lib/failed-save';
import { t } from '@/lib/i18n';
import { useCountries, useStates } from '@/lib/lookups';
import { checkAddress, checkedField, historyQueries, saveAddresses, type AddressesAnswer } from '../api/history-api';
import {
  coveragePeriods,
  coverageProblems,
  emptyAddress,
  IDAHO,
  MAX_ADDRESSES,
  toAddresses,
  toAddressRow,
  US,
  type AddressContext,
  type AddressRow,
  type AddressValues,
  type Gap,
} from '../lib/address-rules';
import { CoverageBar } from '@/components/coverage-bar/coverage-bar';
import { coverageStartOf, isMonth, monthIndex, monthName, monthOf, monthOfDate } from '@/lib/months';
import { useQuietNewRows } from '../lib/quiet-rows';
import { addressSchema } from '../lib/schemas';
import { useHistorySave } from '../lib/use-history-save';
import { SaveActions, type SaveIntent } from './save-actions';
import styles from './history.module.css';

type AddressesFormProps = {
  initial: AddressesAnswer;
  onSaved?: (intent: SaveIntent) => void;
  /** Today, for the coverage and "not in the future" (tests fix it). */
  today?: Date;
};

/** What the address service said of a row, for the address it was asked about. */
type CheckAnswer = { releaseFormRequired: boolean; address: string; errors: Partial<Record<keyof AddressRow, string>> };
type Checked = Record<string, CheckAnswer>;

/** The parts of a row the address service looks at: its messages hold while these are unchanged. */
const checkedAddress = (row: AddressRow) => JSON.stringify([row.country, row.street1, row.city, row.state, row.zip]);

export function AddressesForm({ initial, onSaved, today }: AddressesFormProps) {
  const states = useStates();
  const countries = useCountries();
  const ctx = useMemo<AddressContext>(
    () => ({
      today: today ?? new Date(),
      // The server's answer, else the same count from today.
      coverageStart: isMonth(initial.coverageStart ?? '')
        ? initial.coverageStart
        : coverageStartOf(today ?? new Date(), initial.requiredYears),
      requiredYears: initial.requiredYears,
      stateCodes: states.data ? new Set(states.data.map((s) => s.code)) : undefined,
    }),
    [today, initial.coverageStart, initial.requiredYears, states.data],
  );
  // "Save for later" checks the list as a draft: set by the press, read by the form's rules.
  const draft = useRef(false);
  const schema = useMemo(() => addressSchema(ctx, () => draft.current), [ctx]);
  const defaults = useMemo<AddressValues>(
    () => ({ addresses: initial.addresses.length ? initial.addresses.map(toAddressRow) : [emptyAddress(true)] }),
    // The form is filled once, from the answer the page waited for.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  const form = useAppForm(schema, { defaultValues: defaults, shouldFocusError: false });
  const { setError, formState } = form;
  const rows = useFieldArray({ control: form.control, name: 'addresses' });
  const id = useId();
  const gapId = (n: number) => `${id}-gap-${n}`;
  const errorOf = useQuietNewRows(form);
  const addresses = useWatch({ control: form.control, name: 'addresses' });
  const coverage = coverageProblems(addresses, ctx);
  // The gaps the last refused "Save and continue" found that are still there: each links to its button.
  const gapsInError = coverage.gaps.flatMap((gap, n) =>
    errorAt(formState.errors, `addresses.gaps.${n}`) === gap.message ? [{ id: gapId(n), label: gap.message }] : [],
  );
  const { formRef, intent, summary, onSubmit } = useHistorySave(form, {
    save: (data) => saveAddresses(toAddresses(data), draft.current),
    draftKey: 'addresses',
    listProblems: gapsInError,
    queryKey: historyQueries.addresses().queryKey,
    saved: t('history.address.saved'),
    saveFailed: t('history.address.saveFailed'),
    onSaved,
  });
  const addRef = useRef<HTMLButtonElement>(null);
  const [checked, setChecked] = useState<Checked>({});

  /** Asks the address service about row i and puts its messages next to the fields they name. */
  async function check(i: number, key: string) {
    const row = form.getValues(`addresses.${i}`);
    if (!row.zip.trim()) return;
    try {
      const answer = await checkAddress(row);
      const errors: CheckAnswer['errors'] = {};
      for (const { field, message } of answer.errorFields) {
        const name = checkedField[field];
        if (name && !errors[name]) errors[name] = message;
        if (name) setError(`addresses.${i}.${name}`, { type: 'address', message });
      }
      // Kept here too: adding or removing a row revalidates the list with the form's rules, which
      // know nothing of the address service, and would wipe its messages from the form.
      setChecked((last) => ({
        ...last,
        [key]: { releaseFormRequired: answer.releaseFormRequired, address: checkedAddress(row), errors },
      }));
    } catch {
      // The check is a help while typing; the save checks again and says what is wrong.
    }
  }

  return (
    <form
      ref={formRef}
      className={styles.form}
      onSubmit={(e) => {
        draft.current = intent.current === 'stay';
        void onSubmit(e).finally(() => {
          draft.current = false;
        });
      }}
      noValidate
      aria-label={t('history.address.title')}
    >
      {summary}
      <Coverage
        form={form}
        ctx={ctx}
        gaps={coverage.gaps}
        gapId={gapId}
        canAdd={rows.fields.length < MAX_ADDRESSES}
        // Focus goes to the new block: the button goes with the gap it closes.
        onAddGap={(gap) =>
          rows.append(
            { ...emptyAddress(), from: gap.from, to: gap.to },
            { focusName: `addresses.${rows.fields.length}.street1` },
          )
        }
      />
      {rows.fields.map((field, i) => (
        <AddressFields
          key={field.id}
          form={form}
          index={i}
          errorOf={(name) => errorOf(field.id, name)}
          countries={(countries.data ?? []).map((c) => ({ value: c.countryCode, label: c.countryName }))}
          states={(states.data ?? []).map((s) => ({ value: s.code, label: s.name }))}
          checked={checked[field.id]}
          onZipBlur={() => void check(i, field.id)}
          onRemove={() => {
            rows.remove(i);
            addRef.current?.focus();
          }}
        />
      ))}
      {rows.fields.length < MAX_ADDRESSES ? (
        <div>
          <Button ref={addRef} variant="secondary" onClick={() => rows.append(emptyAddress())}>
            {t('history.address.add')}
          </Button>
        </div>
      ) : null}
      <SaveActions submitting={formState.isSubmitting} intent={intent} />
    </form>
  );
}

type Option = { value: string; label: string };

function AddressFields({
  form,
  index: i,
  errorOf,
  countries,
  states,
  checked,
  onZipBlur,
  onRemove,
}: {
  form: UseFormReturn<AddressValues>;
  index: number;
  /** The message a field of this row shows (a row added after a refused save starts quiet). */
  errorOf: (name: string) => string | undefined;
  countries: Option[];
  states: Option[];
  checked: CheckAnswer | undefined;
  onZipBlur: () => void;
  onRemove: () => void;
}) {
  const { register, setValue } = form;
  const row = useWatch({ control: form.control, name: `addresses.${i}` });
  const answer = checked && checked.address === checkedAddress(row) ? checked : undefined;
  const releaseFormRequired = answer?.releaseFormRequired ?? false;
  const err = (field: keyof AddressRow) => errorOf(`addresses.${i}.${field}`) ?? answer?.errors[field];
  const us = row.country === US;
  const current = i === 0 && row.current;
  const idaho = us && row.state === IDAHO;
  const legend = i === 0 ? t('history.address.currentLegend') : t('history.address.previousN', { n: i });
  // The browser offers the applicant's own address for the current one (WCAG 1.3.5); a previous
  // address is no address it knows, and would only be filled with the current one.
  const purpose = (token: string) => (i === 0 ? token : 'off');
  return (
    <Fieldset legend={legend}>
      <div className={styles.fields}>
        {i === 0 ? (
          <Checkbox
            className={styles.wide}
            label={t('history.address.liveHereNow')}
            error={err('current')}
            {...register('addresses.0.current')}
          />
        ) : null}
        <Select
          label={t('history.address.countryLabel')}
          required
          autoComplete={purpose('country')}
          error={err('country')}
          {...register(`addresses.${i}.country` as const, {
            // A state of one country means nothing in another.
            onChange: () => setValue(`addresses.${i}.state`, ''),
          })}
        >
          {countries.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </Select>
        <div />
        <TextField
          label={t('history.address.street1')}
          required
          autoComplete={purpose('address-line1')}
          error={err('street1')}
          {...register(`addresses.${i}.street1` as const)}
        />
        <TextField
          label={t('history.address.street2')}
          optional
          autoComplete={purpose('address-line2')}
          error={err('street2')}
          {...register(`addresses.${i}.street2` as const)}
        />
        <TextField
          label={t('history.address.cityLabel')}
          required
          autoComplete={purpose('address-level2')}
          error={err('city')}
          {...register(`addresses.${i}.city` as const)}
        />
        {us ? (
          <Select
            label={t('history.address.stateLabel')}
            placeholder={t('history.address.chooseAState')}
            required
            autoComplete={purpose('address-level1')}
            error={err('state')}
            {...register(`addresses.${i}.state` as const)}
          >
            {states.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </Select>
        ) : (
          <TextField
            label={t('history.address.region')}
            autoComplete={purpose('address-level1')}
            error={err('state')}
            {...register(`addresses.${i}.state` as const)}
          />
        )}
        <TextField
          label={us ? t('history.address.zipLabel') : t('history.address.postalCode')}
          required={us}
          inputMode={us ? 'numeric' : undefined}
          autoComplete={purpose('postal-code')}
          error={err('zip')}
          {...register(`addresses.${i}.zip` as const, { onBlur: onZipBlur })}
        />
        <div />
        <DateField
          kind="month"
          label={t('history.address.fromLabel')}
          required
          error={err('from')}
          {...register(`addresses.${i}.from` as const)}
        />
        {current ? null : (
          <DateField
            kind="month"
            label={t('history.address.toLabel')}
            required
            error={err('to')}
            {...register(`addresses.${i}.to` as const)}
          />
        )}
        {idaho || releaseFormRequired ? (
          <div className={styles.wide}>
            <Alert tone="info">
              <p>{t('history.address.idaho')}</p>
            </Alert>
          </div>
        ) : null}
        {i > 0 ? (
          <div className={styles.rowActions}>
            <Button
              variant="link"
              aria-label={t('history.address.removeName', { name: row.street1.trim() || legend })}
              onClick={onRemove}
            >
              {t('history.address.remove')}
            </Button>
          </div>
        ) : null}
      </div>
    </Fieldset>
  );
}

/**
 * The years asked for, and what the addresses typed so far leave out (each gap with a button that adds
 * an address for its months) or count twice. A change on one address can open or close an overlap
 * reported on another: the from fields already touched are checked again, so their messages follow.
 */
function Coverage({
  form,
  ctx,
  gaps,
  gapId,
  canAdd,
  onAddGap,
}: {
  form: UseFormReturn<AddressValues>;
  ctx: AddressContext;
  gaps: Gap[];
  gapId: (n: number) => string;
  canAdd: boolean;
  onAddGap: (gap: Gap) => void;
}) {
  const addresses = useWatch({ control: form.control, name: 'addresses' });
  const started = addresses.some((a) => isMonth(a.from));
  const overlapKey = JSON.stringify(coverageProblems(addresses, ctx).overlaps);
  const { trigger, getFieldState } = form;
  useEffect(() => {
    const touched = addresses
      .map((_, i) => `addresses.${i}.from` as const)
      .filter((name) => getFieldState(name).isTouched);
    if (touched.length) void trigger(touched);
    // Only when the overlaps change, not on every keystroke.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [overlapKey]);
  return (
    <div className={styles.coverage}>
      <p>{t('history.address.required', { years: ctx.requiredYears, month: monthName(ctx.coverageStart) })}</p>
      {started ? (
        <CoverageBar
          periods={coveragePeriods(addresses, ctx)}
          start={monthIndex(ctx.coverageStart)}
          end={monthOfDate(ctx.today)}
          addLabel={(range) => t('history.address.addForRange', { range })}
          gapButtonId={gapId}
          overlapLabel={t('history.address.overlapLabel')}
          onAddGap={
            canAdd ? (segment) => onAddGap(gaps.find((g) => g.from === monthOf(segment.from)) ?? gaps[0]) : undefined
          }
        />
      ) : null}
      {/* A status (polite), not an alert: it changes as the applicant types. */}
      {!started ? null : gaps.length === 0 ? (
        <Alert tone="success">
          <p>{t('history.address.covered', { month: monthName(ctx.coverageStart) })}</p>
        </Alert>
      ) : (
        <Alert tone="info" title={t('history.address.problems')}>
          {/* Each gap's button is in the list under the bar, beside its months. */}
          <ul className={styles.gaps}>
            {gaps.map((gap) => (
              <li key={`${gap.from}-${gap.to}`}>
                <p>{gap.message}</p>
              </li>
            ))}
          </ul>
        </Alert>
      )}
    </div>
  );
}
