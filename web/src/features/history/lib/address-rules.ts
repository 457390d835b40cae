// The rules of the address history (docs/api.md, "Addresses"), mirrored from
// the server, which checks again on every save with the same messages: each
// address on its own, then the periods together (overlaps, gaps, how far back
// they reach). The coverage part also feeds the page's live summary. Both
// sides run the cases of internal/portal/testdata/address-cases.json.
import '@/features/history/lib/messages';
import type { Address } from '@/lib/subject';
import { t } from '@/lib/i18n';
import { checkMonth, checkMonthOrder, checkText, fieldErrors } from './field-checks';
import { coverageOf } from '@/lib/coverage';
import { monthIndex, monthName, monthOf, monthOfDate } from '@/lib/months';

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
  /** "Save for later": each address must be right, the list need not be whole (no coverage, no current address). */
  draft?: boolean;
};

export const US = 'US';
const ZIP = /^\d{5}(-\d{4})?$/;
export const IDAHO = 'US-ID';
/** The server takes at most this many addresses. */
export const MAX_ADDRESSES = 30;
// The server's limits on the parts of an address, in characters.
const MAX_PART_LENGTH = 200;
const MAX_ZIP_LENGTH = 20;

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

export type Problem = { field: string; message: string };

/** Months no address covers, both ends included ("YYYY-MM"), and what to ask for them. */
export type Gap = { from: string; to: string; message: string };

type Period = { index: number; from: number; end: number; street: string };

/**
 * The periods the addresses state well enough to count, as the server's: a valid from, and a valid
 * end not before it (today for the current one). Months in the future count too: their fields say
 * what is wrong with them.
 */
function periodsOf(addresses: AddressRow[], today: number): Period[] {
  const periods = addresses.flatMap((a, index) => {
    const current = index === 0 && a.current;
    const from = monthIndex(a.from);
    const end = current ? today : monthIndex(a.to);
    if (Number.isNaN(from) || Number.isNaN(end) || end < from) return [];
    return [{ index, from, end, street: a.street1.trim() }];
  });
  return periods.sort((a, b) => a.from - b.from || a.index - b.index);
}

/**
 * An overlap of more than the shared boundary month, on the later address's from: the later address
 * may start in the month the earlier one ends, not before (a one-month stay inside another address's
 * period overlaps it too).
 */
function overlaps(periods: Period[]): Problem[] {
  const problems: Problem[] = [];
  const overlapped = new Set<number>();
  periods.forEach((later, j) => {
    for (const earlier of periods.slice(0, j)) {
      if (later.from < earlier.end && !overlapped.has(later.index)) {
        overlapped.add(later.index);
        problems.push({
          field: `addresses.${later.index}.from`,
          message: t('history.address.overlap', { street: earlier.street }),
        });
      }
    }
  });
  return problems;
}

/**
 * The months from the coverage start to today no period covers, the missing start included, as the
 * server's: the list's problem, not one address's, said as the address still to add.
 */
function gaps(periods: Period[], ctx: AddressContext, today: number): Gap[] {
  const start = monthIndex(ctx.coverageStart);
  if (Number.isNaN(start)) return [];
  const covered = coverageOf(
    periods.map((p) => ({ from: p.from, to: p.end })),
    start,
    today,
  );
  return covered.gaps.map(({ from, to }) => ({
    from: monthOf(from),
    to: monthOf(to),
    message:
      from === to
        ? t('history.address.gapMonth', { month: monthName(from) })
        : t('history.address.gap', { from: monthName(from), to: monthName(to) }),
  }));
}

/** The months of each address stated well enough to count, for the coverage bar (lib/coverage). */
export function coveragePeriods(addresses: AddressRow[], ctx: AddressContext): { from: number; to: number }[] {
  return periodsOf(addresses, monthOfDate(ctx.today)).map((p) => ({ from: p.from, to: p.end }));
}

/** The overlaps and the gaps of the periods typed so far (the page's live summary of the coverage). */
export function coverageProblems(addresses: AddressRow[], ctx: AddressContext): { overlaps: Problem[]; gaps: Gap[] } {
  const today = monthOfDate(ctx.today);
  const periods = periodsOf(addresses, today);
  return { overlaps: overlaps(periods), gaps: gaps(periods, ctx, today) };
}

const required = (label: string) => t('history.rule.required', { label });

/**
 * The parts of one address the app can check itself, as the server's address checks (internal/address)
 * with their messages: the street everywhere, and in the US the city, a state of the lookup and the
 * form of the ZIP code. Whether the ZIP code is in that state, and abroad which parts the country's
 * format needs, the address check says as the applicant leaves the ZIP code, and the save.
 */
function checkParts(put: (field: string, message: string) => void, i: number, a: AddressRow, ctx: AddressContext) {
  const at = (field: keyof AddressRow) => `addresses.${i}.${field}`;
  if (!a.street1.trim()) put(at('street1'), required(t('history.address.streetLabel')));
  if (a.country.trim() !== US) return;
  if (!a.city.trim()) put(at('city'), required(t('history.address.cityLabel')));
  const state = a.state.trim();
  if (!state) put(at('state'), required(t('history.address.stateLabel')));
  else if (ctx.stateCodes && !ctx.stateCodes.has(state)) put(at('state'), t('history.address.chooseState'));
  const zip = a.zip.trim();
  if (!zip) put(at('zip'), required(t('history.address.zipLabel')));
  else if (!ZIP.test(zip)) put(at('zip'), t('history.address.zipFormat'));
}

/** Every field error of the form by path ("addresses.1.zip"), the first rule broken on each field. */
export function validateAddresses(values: AddressValues, ctx: AddressContext): Record<string, string> {
  const { errors, put } = fieldErrors();
  const rows = values.addresses;
  if (rows.length === 0) {
    put('addresses', t('history.address.none'));
    return errors;
  }
  if (rows.length > MAX_ADDRESSES) {
    put('addresses', t('history.address.max', { n: MAX_ADDRESSES }));
    return errors;
  }
  const today = monthOfDate(ctx.today);
  const labels = { from: t('history.address.fromLabel'), to: t('history.address.toLabel') };

  rows.forEach((a, i) => {
    const at = (field: keyof AddressRow) => `addresses.${i}.${field}`;
    if (!a.country.trim()) put(at('country'), required(t('history.address.countryLabel')));
    // The lengths first, as the server: a part too long is said as such, not as a wrong state or ZIP code.
    checkText(put, at('street1'), t('history.address.streetLabel'), a.street1, false, MAX_PART_LENGTH);
    checkText(put, at('street2'), t('history.address.street2Label'), a.street2, false, MAX_PART_LENGTH);
    checkText(put, at('city'), t('history.address.cityLabel'), a.city, false, MAX_PART_LENGTH);
    checkText(put, at('state'), t('history.address.stateLabel'), a.state, false, MAX_PART_LENGTH);
    checkText(put, at('zip'), t('history.address.zipLabel'), a.zip, false, MAX_ZIP_LENGTH);
    // Without a country the server checks no other part: which ones it needs depends on the country.
    if (a.country.trim()) checkParts(put, i, a, ctx);

    const from = checkMonth(put, at('from'), labels.from, a.from, true, today);
    if (!(i === 0 && a.current)) {
      const to = checkMonth(put, at('to'), labels.to, a.to, true, today);
      checkMonthOrder(put, at('to'), labels, from, to);
    }
  });
  if (!rows[0].current && !ctx.draft) put('addresses.0.current', t('history.address.noCurrent'));

  // As the server: gaps only when every period is right (a wrong date would otherwise show twice),
  // overlaps always.
  const periodsWrong = Object.keys(errors).some((field) => /\.(from|to|current)$/.test(field));
  const periods = periodsOf(rows, today);
  for (const problem of overlaps(periods)) put(problem.field, problem.message);
  if (periodsWrong || ctx.draft) return errors;
  // A gap up to today is no current address, said above.
  gaps(periods, ctx, today)
    .filter((gap) => monthIndex(gap.to) < today)
    .forEach((gap, n) => put(`addresses.gaps.${n}`, gap.message));
  return errors;
}

/** The month today, as the contract writes it. */
export const thisMonth = (today: Date) => monthOf(monthOfDate(today));
