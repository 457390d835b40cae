import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Address, Alias } from '@/lib/subject';
import { validateAddresses } from '../lib/address-rules';
import { validateAliases } from '../lib/alias-rules';
import { coverageStartOf } from '@/lib/months';

// The tables of address history and other names cases the server's Go tests read too
// (internal/portal/testdata/address-cases.json and alias-cases.json; their "about" says the shape).
type Table<T, More> = {
  today: string;
  base: T;
  cases: ({ name: string; want: Record<string, string> } & More)[];
};
type AddressTable = Table<Address, { requiredYears?: number; draft?: boolean; addresses: Partial<Address>[] }> & {
  requiredYears: number;
  stateCodes: string[];
};
type AliasTable = Table<Alias, { aliases: Partial<Alias>[] }> & { currentNames: [string, string][] };

// Vitest runs from web/.
const read = <T>(name: string) =>
  JSON.parse(readFileSync(resolve(process.cwd(), '../internal/portal/testdata', name), 'utf8')) as T;

/** The table's today at midday in the local calendar, which the rules read. */
function todayOf(day: string) {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(year, month - 1, date, 12);
}

describe('address history rules follow the shared table of the server', () => {
  const table = read<AddressTable>('address-cases.json');
  const today = todayOf(table.today);
  it('has cases to check', () => {
    expect(table.cases.length).toBeGreaterThanOrEqual(50);
  });
  it.each(table.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const requiredYears = c.requiredYears ?? table.requiredYears;
    const addresses = c.addresses.map((change) => ({ ...table.base, ...change, recordId: '' }));
    const got = validateAddresses(
      { addresses },
      {
        today,
        requiredYears,
        coverageStart: coverageStartOf(today, requiredYears),
        stateCodes: new Set(table.stateCodes),
        draft: c.draft,
      },
    );
    expect(got).toEqual(c.want);
  });
});

describe('other names rules follow the shared table of the server', () => {
  const table = read<AliasTable>('alias-cases.json');
  const ctx = {
    today: todayOf(table.today),
    currentNames: table.currentNames.map(([firstName, lastName]) => ({ firstName, lastName })),
  };
  it('has cases to check', () => {
    expect(table.cases.length).toBeGreaterThanOrEqual(30);
  });
  it.each(table.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const aliases = c.aliases.map((change) => ({ ...table.base, ...change, recordId: '' }));
    // An empty list is what the form sends for "I have not used any other names".
    expect(validateAliases({ noOtherNames: aliases.length === 0, aliases }, ctx)).toEqual(c.want);
  });
});
