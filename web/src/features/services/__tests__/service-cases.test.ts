import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FieldDefinition, Rule } from '@/lib/subject';
import { evaluateRule, type EntryValues } from '@/lib/field-rules';
import { validateEntry } from '../lib/validate-entry';

// The shared tables the server's Go tests read too (internal/portal/testdata), and this
// feature's own cases in the same format: both must pass, on both sides.
type RuleCase = { name: string; rule: Rule; values: EntryValues; want: boolean };
type EntryCase = {
  name: string;
  today: string;
  fields: FieldDefinition[];
  entry: EntryValues;
  errors: Record<string, string>;
  /** The lookups' codes by reference ("states", "countries"); a reference without a list is checked against the field's options. */
  lookups?: Record<string, string[]>;
};

// Vitest runs from web/.
const root = resolve(process.cwd(), '..');
const read = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const tables = <T>(name: string): [string, T[]][] => {
  const shared = resolve(root, 'internal/portal/testdata', name);
  const own = resolve(__dirname, 'cases', name);
  return [
    ...(existsSync(shared) ? [[`shared ${name}`, read<T[]>(shared)] as [string, T[]]] : []),
    [`own ${name}`, read<T[]>(own)],
  ];
};

describe.each(tables<RuleCase>('rule-cases.json'))('%s', (_table, cases) => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(evaluateRule(c.rule, c.values)).toBe(c.want);
  });
});

describe.each(tables<EntryCase>('entry-cases.json'))('%s', (_table, cases) => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(validateEntry(c.fields, c.entry, { today: c.today, references: c.lookups })).toEqual(c.errors);
  });
});
