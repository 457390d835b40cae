// The rules of the other names (docs/api.md, "Aliases"), mirrored from the
// server, which checks again on every save with the same messages.
import '@/features/history/lib/messages';
import type { Alias } from '@/lib/subject';
import { t } from '@/lib/i18n';
import { isMonth, monthIndex, monthOfDate } from './months';

export const ALIAS_TYPES = ['maiden', 'previous', 'nickname', 'other'] as const;
/** The server takes at most this many names. */
export const MAX_ALIASES = 10;

/** One name on the form: the contract's Alias, with the server's id kept aside from the field array's keys. */
export type AliasRow = Omit<Alias, 'id'> & { recordId: string };
export type AliasValues = {
  /** The explicit answer "I have not used any other names": saves an empty list. */
  noOtherNames: boolean;
  aliases: AliasRow[];
};

export type AliasContext = { today: Date; currentName: { firstName: string; lastName: string } };

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
  const errors: Record<string, string> = {};
  if (values.noOtherNames) return errors;
  const put = (field: string, message: string) => {
    errors[field] ??= message;
  };
  if (values.aliases.length === 0) put('noOtherNames', t('history.alias.noneGiven'));
  const today = monthOfDate(ctx.today);
  const fromLabel = t('history.alias.fromLabel');
  const toLabel = t('history.alias.toLabel');

  values.aliases.forEach((a, i) => {
    const at = (field: keyof AliasRow) => `aliases.${i}.${field}`;
    const typeLabel = t('history.alias.typeLabel');
    if (!a.type) put(at('type'), t('history.rule.required', { label: typeLabel }));
    else if (!(ALIAS_TYPES as readonly string[]).includes(a.type))
      put(at('type'), t('history.rule.choose', { label: typeLabel }));
    if (!a.firstName.trim()) put(at('firstName'), t('history.rule.required', { label: t('history.alias.firstName') }));
    if (!a.lastName.trim()) put(at('lastName'), t('history.rule.required', { label: t('history.alias.lastName') }));

    for (const [field, label] of [
      ['from', fromLabel],
      ['to', toLabel],
    ] as const) {
      const value = a[field].trim();
      if (!value) continue;
      if (!isMonth(value)) put(at(field), t('history.rule.badMonth', { label }));
      else if (monthIndex(value) > today) put(at(field), t('history.rule.future', { label }));
    }
    if (isMonth(a.from) && isMonth(a.to) && monthIndex(a.to) < monthIndex(a.from))
      put(at('to'), t('history.rule.before', { label: toLabel, other: fromLabel }));

    if (
      a.firstName.trim() &&
      same(a.firstName, ctx.currentName.firstName) &&
      same(a.lastName, ctx.currentName.lastName)
    ) {
      put(at('firstName'), t('history.alias.currentName'));
    }
    const twice = values.aliases
      .slice(0, i)
      .some(
        (b) =>
          same(a.firstName, b.firstName) &&
          same(a.middleName, b.middleName) &&
          same(a.lastName, b.lastName) &&
          a.suffix === b.suffix,
      );
    if (twice && a.firstName.trim()) put(at('firstName'), t('history.alias.duplicate'));
  });
  return errors;
}
