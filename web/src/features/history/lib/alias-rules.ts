// The rules of the other names (docs/api.md, "Aliases"), mirrored from the
// server, which checks again on every save with the same messages. Both sides
// run the cases of internal/portal/testdata/alias-cases.json.
import '@/features/history/lib/messages';
import type { Alias } from '@/lib/subject';
import { t } from '@/lib/i18n';
import { checkMonth, checkMonthOrder, checkText, fieldErrors } from './field-checks';
import { monthOfDate } from '@/lib/months';

export const ALIAS_TYPES = ['maiden', 'previous', 'nickname', 'other'] as const;
/** The server takes at most this many names. */
export const MAX_ALIASES = 10;
/** The server's limit on each part of a name, in characters. */
const MAX_NAME_LENGTH = 100;

/** One name on the form: the contract's Alias, with the server's id kept aside from the field array's keys. */
export type AliasRow = Omit<Alias, 'id'> & { recordId: string };
export type AliasValues = {
  /** The explicit answer "I have not used any other names": saves an empty list. */
  noOtherNames: boolean;
  aliases: AliasRow[];
};

export type AliasContext = {
  today: Date;
  /** The applicant's current names (the account's and the personal information's): an alias may not repeat one. */
  currentNames: { firstName: string; lastName: string }[];
};

export const emptyAlias = (): AliasRow => ({
  recordId: '',
  type: '',
  firstName: '',
  middleName: '',
  lastName: '',
  suffix: '',
  from: '',
  to: '',
});

export const toAliasRow = ({ id, ...alias }: Alias): AliasRow => ({ ...emptyAlias(), ...alias, recordId: id ?? '' });

/** The body of PUT /api/v2/user/subject/alias. */
export function toAliases(values: AliasValues): Alias[] {
  if (values.noOtherNames) return [];
  return values.aliases.map(({ recordId, ...row }) => ({
    ...(recordId ? { id: recordId } : {}),
    type: row.type,
    firstName: row.firstName.trim(),
    middleName: row.middleName.trim(),
    lastName: row.lastName.trim(),
    suffix: row.suffix,
    from: row.from.trim(),
    to: row.to.trim(),
  }));
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Every field error of the form by path ("aliases.1.lastName"), the first rule broken on each field. */
export function validateAliases(values: AliasValues, ctx: AliasContext): Record<string, string> {
  const { errors, put } = fieldErrors();
  if (values.noOtherNames) return errors;
  if (values.aliases.length === 0) put('noOtherNames', t('history.alias.noneGiven'));
  if (values.aliases.length > MAX_ALIASES) {
    put('aliases', t('history.alias.max', { n: MAX_ALIASES }));
    return errors;
  }
  const today = monthOfDate(ctx.today);
  const labels = { from: t('history.alias.fromLabel'), to: t('history.alias.toLabel') };
  const typeLabel = t('history.alias.typeLabel');
  const seen = new Set<string>();

  values.aliases.forEach((a, i) => {
    const at = (field: keyof AliasRow) => `aliases.${i}.${field}`;
    if (!a.type) put(at('type'), t('history.rule.required', { label: typeLabel }));
    else if (!(ALIAS_TYPES as readonly string[]).includes(a.type))
      put(at('type'), t('history.rule.choose', { label: typeLabel }));
    checkText(put, at('firstName'), t('history.alias.firstName'), a.firstName, true, MAX_NAME_LENGTH);
    checkText(put, at('middleName'), t('history.alias.middleName'), a.middleName, false, MAX_NAME_LENGTH);
    checkText(put, at('lastName'), t('history.alias.lastName'), a.lastName, true, MAX_NAME_LENGTH);
    const from = checkMonth(put, at('from'), labels.from, a.from, false, today);
    const to = checkMonth(put, at('to'), labels.to, a.to, false, today);
    checkMonthOrder(put, at('to'), labels, from, to);

    // As the server: a name is compared only once its first and last names are there, and the
    // current name is said as such, not as a second listing.
    if (!a.firstName.trim() || !a.lastName.trim()) return;
    if (ctx.currentNames.some((n) => same(a.firstName, n.firstName) && same(a.lastName, n.lastName))) {
      put(at('firstName'), t('history.alias.currentName'));
      return;
    }
    const name = [a.firstName, a.middleName, a.lastName, a.suffix].map((s) => s.trim().toLowerCase()).join('\0');
    if (seen.has(name)) put(at('firstName'), t('history.alias.duplicate'));
    seen.add(name);
  });
  return errors;
}
