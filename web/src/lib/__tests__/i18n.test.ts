import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { t, type MessageKey } from '@/lib/i18n';
import { enUS } from '@/locales/en-US/messages';

// Vitest runs in web/.
const src = join(process.cwd(), 'src');

/**
 * Keys the code builds at run time instead of naming them in a literal, so no
 * scan finds them: each is listed here with where it is built.
 */
const DYNAMIC_KEYS: readonly string[] = [];

/** Areas that load with their feature, not with the app (lib/i18n.ts), and the module that adds each. */
const LAZY_AREAS: Record<string, string> = {
  ...Object.fromEntries(
    ['account', 'chat', 'documents', 'history', 'legal', 'personal', 'profile', 'services', 'setup'].map((area) => [
      area,
      `@/features/${area}/lib/messages`,
    ]),
  ),
  nav: '@/components/app-nav/messages',
  upload: '@/components/upload-field/messages',
  forms: '@/features/pdf-forms/lib/messages',
};

/** The app's own source files: tests and the catalogue itself excluded. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === '__tests__' || name === 'locales' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

const sources = sourceFiles(src).map((path) => ({ path: relative(src, path), text: readFileSync(path, 'utf8') }));
const catalogue = enUS as Record<string, string>;

describe('the message catalogue', () => {
  it('has every key the code passes to t() as a literal', () => {
    const missing: string[] = [];
    for (const { path, text } of sources) {
      for (const match of text.matchAll(/\bt\(\s*(['"])([^'"]+)\1/g)) {
        if (!(match[2] in catalogue)) missing.push(`${path}: ${match[2]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('has no key the code never names (a key in a quoted literal anywhere counts as used)', () => {
    const unused = Object.keys(catalogue).filter(
      (key) =>
        !DYNAMIC_KEYS.includes(key) &&
        !sources.some(({ text }) => text.includes(`'${key}'`) || text.includes(`"${key}"`)),
    );
    expect(unused).toEqual([]);
  });

  it('has each feature area added before a module names its keys: the module imports the area first', () => {
    const late: string[] = [];
    for (const { path, text } of sources) {
      for (const [area, loader] of Object.entries(LAZY_AREAS)) {
        const named = new RegExp(`['"]${area}\\.[\\w.]+['"]`).test(text);
        if (named && !text.includes(`import '${loader}';`)) late.push(`${path}: ${area}`);
      }
    }
    expect(late).toEqual([]);
  });

  it('prefixes every key with the area of the file it lives in', () => {
    const dir = join(src, 'locales', 'en-US');
    const misplaced = readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .flatMap((name) => {
        const area = name.replace(/\.json$/, '');
        const keys = Object.keys(JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, string>);
        return keys.filter((key) => !key.startsWith(`${area}.`)).map((key) => `${name}: ${key}`);
      });
    expect(misplaced).toEqual([]);
  });
});

describe('t', () => {
  const key = Object.keys(catalogue).find((k) => catalogue[k].includes('{')) as MessageKey | undefined;

  it('gives a key the catalogue lacks back as it is, so the gap shows', () => {
    expect(t('no.such.key' as MessageKey)).toBe('no.such.key');
  });

  it.runIf(key)(
    'fills {name} placeholders, keeps "$" in values as it is, and leaves a placeholder without a value as written',
    () => {
      const message = catalogue[String(key)];
      const names = [...message.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const values = Object.fromEntries(names.map((name) => [name, `$&${name}`]));
      expect(t(key as MessageKey, values)).toBe(message.replace(/\{(\w+)\}/g, (_, name: string) => `$&${name}`));
      expect(t(key as MessageKey)).toBe(message);
    },
  );
});
