import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validatePersonal, type PersonalValues } from '../lib/personal-rules';

// The one table of personal information cases the server's Go test reads too
// (internal/portal/testdata/personal-cases.json; its "about" says the shape).
type Case = {
  name: string;
  change: Partial<PersonalValues>;
  rules?: { requireSSN?: boolean; ssnOnFile?: boolean };
  want: Record<string, string>;
};

const table = JSON.parse(
  // Vitest runs from web/.
  readFileSync(resolve(process.cwd(), '../internal/portal/testdata/personal-cases.json'), 'utf8'),
) as { today: string; base: PersonalValues; cases: Case[] };

// The rules read the local calendar day of `today`.
const [year, month, day] = table.today.split('-').map(Number);
const today = new Date(year, month - 1, day, 12);

describe('personal information rules follow the shared table of the server', () => {
  it('has cases to check', () => {
    expect(table.cases.length).toBeGreaterThanOrEqual(40);
  });
  it.each(table.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const got = validatePersonal(
      { ...table.base, ...c.change },
      {
        requireSSN: c.rules?.requireSSN ?? false,
        ssnOnFile: c.rules?.ssnOnFile ?? false,
        today,
      },
    );
    expect(got).toEqual(c.want);
  });
});
