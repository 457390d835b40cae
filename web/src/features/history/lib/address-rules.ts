// The rules of the address history (docs/api.md, "Addresses"), mirrored from
// the server, which checks again on every save with the same messages: each
// address on its own, then the periods together (overlaps, gaps, how far back
// they reach). The coverage part also feeds the page's live summary.
import '@/features/history/lib/messages';
import type { Address } from '@/lib/subject';
import { t } from '@/lib/i18n';
import { isMonth, monthIndex, monthLabel, monthOf, monthOfDate } from './months';

/** One address on the form: the contract's Address, with the server's id kept aside from the field array's keys. */
export type AddressRow = Omit<Address, 'id'> & { recordId: string };
export type AddressValues = { addresses: AddressRow[] };

export type AddressContext = {
  today: Date;
  /** "YYYY-MM": the first month the history must cover. */
  coverageStart: string;
  requiredYears: number;
  /** The states lookup's codes; when given, a US state must be one of them. */
  stateCodes?: ReadonlySet<string>;
};

export const US = 'US';
const ZIP = /^\d{5}(-\d{4})?$/;
export const IDAHO = 'US-ID';

export const emptyAddress = (current = false): AddressRow => ({
  recordId: '',
  country: US,
  street1: '',
  street2: '',
  city: '',
  state: '',
  zip: '',
  from: '',
  to: '',
  current,
});

export const toAddressRow = ({ id, ...address }: Address, index: number): AddressRow => ({
  ...emptyAddress(),
  ...address,
  recordId: id ?? '',
  // Only the first address may be the current one (the form's checkbox is on it alone).
  current: index === 0 && address.current,
});

/** The body of PUT /api/v2/user/subject/address: trimmed values, no end for the current address. */
export function toAddresses(values: AddressValues): Address[] {
  return values.addresses.map(({ recordId, ...row }, i) => {
    const current = i === 0 && row.current;
    return {
      ...(recordId ? { id: recordId } : {}),
      country: row.country.trim(),
      street1: row.street1.trim(),
      street2: row.street2.trim(),
      city: row.city.trim(),
      state: row.state.trim(),
      zip: row.zip.trim(),
      from: row.from.trim(),
      to: current ? '' : row.to.trim(),
      current,
    };
  });
}

export type Problem = { field: string | null; message: string };

type Period = { index: number; from: number; end: number; street: string };

/** The periods the addresses state well enough to count: a valid from, and an end (today for the current one). */
function periodsOf(addresses: AddressRow[], today: number): Period[] {
  return addresses.flatMap((a, index) => {
    const current = index === 0 && a.current;
    const from = monthIndex(a.from);
    const end = current ? today : monthIndex(a.to);
    if (Number.isNaN(from) || Number.isNaN(end) || from > today || end < from) return [];
    return [{ index, from, end: Math.min(end, today), street: a.street1.trim() }];
  });
}

/**
 * Overlaps and gaps of the periods: an overlap of more than the shared boundary month on the later
 * address's from, a gap on the from of the address after it, a missing start on the oldest address's from
 * (field null when no address fits: the page shows those above the addresses).
 */
export function coverageProblems(addresses: AddressRow[], ctx: AddressContext): Problem[] {
  const today = monthOfDate(ctx.today);
  const start = monthIndex(ctx.coverageStart);
  const periods = periodsOf(addresses, today).sort((a, b) => a.from - b.from || a.index - b.index);
  const problems: Problem[] = [];

  const overlapped = new Set<number>();
  periods.forEach((later, j) => {
    for (const earlier of periods.slice(0, j)) {
      // As the server: the later address may start in the month the earlier one ends, not before
      // (a one-month stay inside another address's period overlaps it too).
      if (later.from < earlier.end && !overlapped.has(later.index)) {
        overlapped.add(later.index);
        problems.push({
          field: `addresses.${later.index}.from`,
          message: t('history.address.overlap', { street: earlier.street }),
        });
      }
    }
  });

  if (Number.isNaN(start)) return problems;
  let month = start;
  while (month <= today) {
    if (periods.some((p) => p.from <= month && month <= p.end)) {
      month++;
      continue;
    }
    const gapFrom = month;
    while (month <= today && !periods.some((p) => p.from <= month && month <= p.end)) month++;
    const gapTo = month - 1;
    // As the server: "must go back" only when no address reaches the first month; a gap that merely
    // straddles it, after an older address, is a gap like any other.
    if (gapFrom === start && (periods.length === 0 || periods[0].from > start)) {
      problems.push({
        field: periods.length ? `addresses.${periods[0].index}.from` : null,
        message: t('history.address.missingStart', { month: monthLabel(start), years: ctx.requiredYears }),
      });
    } else {
      const after = periods.find((p) => p.from === gapTo + 1);
      problems.push({
        field: after ? `addresses.${after.index}.from` : null,
        message: t('history.address.gap', { from: monthLabel(gapFrom), to: monthLabel(gapTo) }),
      });
    }
  }
  return problems;
}

const required = (label: string) => t('history.rule.required', { label });

/** Every field error of the form by path ("addresses.1.zip"), the first rule broken on each field. */
export function validateAddresses(values: AddressValues, ctx: AddressContext): Record<string, string> {
  const errors: Record<string, string> = {};
  const put = (field: string, message: string) => {
    errors[field] ??= message;
  };
  const today = monthOfDate(ctx.today);
  const rows = values.addresses;
  if (rows.length === 0) {
    put('addresses', t('history.address.none'));
    return errors;
  }
  if (!rows[0].current) put('addresses.0.current', t('history.address.noCurrent'));

  rows.forEach((a, i) => {
    const at = (field: keyof AddressRow) => `addresses.${i}.${field}`;
    const current = i === 0 && a.current;
    const us = a.country.trim() === US;
    if (!a.country.trim()) put(at('country'), required(t('history.address.countryLabel')));
    if (!a.street1.trim()) put(at('street1'), required(t('history.address.streetLabel')));
    if (!a.city.trim()) put(at('city'), required(t('history.address.cityLabel')));
    if (us) {
      const state = a.state.trim();
      if (!state) put(at('state'), required(t('history.address.stateLabel')));
      else if (ctx.stateCodes && !ctx.stateCodes.has(state)) put(at('state'), t('history.address.chooseState'));
      const zip = a.zip.trim();
      if (!zip) put(at('zip'), required(t('history.address.zipLabel')));
      else if (!ZIP.test(zip)) put(at('zip'), t('history.address.zipFormat'));
    }

    const fromLabel = t('history.address.fromLabel');
    const toLabel = t('history.address.toLabel');
    const from = a.from.trim();
    if (!from) put(at('from'), required(fromLabel));
    else if (!isMonth(from)) put(at('from'), t('history.rule.badMonth', { label: fromLabel }));
    else if (monthIndex(from) > today) put(at('from'), t('history.rule.future', { label: fromLabel }));
    if (!current) {
      const to = a.to.trim();
      if (!to) put(at('to'), required(toLabel));
      else if (!isMonth(to)) put(at('to'), t('history.rule.badMonth', { label: toLabel }));
      else if (monthIndex(to) > today) put(at('to'), t('history.rule.future', { label: toLabel }));
      else if (isMonth(from) && monthIndex(to) < monthIndex(from))
        put(at('to'), t('history.rule.before', { label: toLabel, other: fromLabel }));
    }
  });

  for (const problem of coverageProblems(rows, ctx)) {
    if (problem.field) put(problem.field, problem.message);
  }
  return errors;
}

/** The month today, as the contract writes it. */
export const thisMonth = (today: Date) => monthOf(monthOfDate(today));
