import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { t, type MessageKey } from '@/lib/i18n';
import { enUS } from '@/locales/en-US/messages';
import { esUS } from '@/locales/es-US/messages';

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

describe('the es-US catalogue', () => {
  const dir = (locale: string) => join(src, 'locales', locale);
  const areas = readdirSync(dir('en-US')).filter((name) => name.endsWith('.json'));
  const read = (locale: string, name: string) =>
    JSON.parse(readFileSync(join(dir(locale), name), 'utf8')) as Record<string, string>;
  const placeholders = (message: string) => [...message.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

  it('has the same area files as en-US', () => {
    expect(
      readdirSync(dir('es-US'))
        .filter((name) => name.endsWith('.json'))
        .sort(),
    ).toEqual([...areas].sort());
  });

  it.each(areas)('%s: has every key en-US has and no other, each with the same placeholders', (name) => {
    const en = read('en-US', name);
    const es = read('es-US', name);
    expect(Object.keys(es).sort()).toEqual(Object.keys(en).sort());
    const differing = Object.keys(en).filter(
      (key) => key in es && placeholders(es[key]).join() !== placeholders(en[key]).join(),
    );
    expect(differing).toEqual([]);
  });

  it('is translated: no message left as its English, short words and names aside', () => {
    const untranslated = areas.flatMap((name) => {
      const en = read('en-US', name);
      const es = read('es-US', name);
      return Object.keys(en).filter((key) => es[key] === en[key] && /[a-z]{4,}\s+[a-z]{3,}/i.test(en[key]));
    });
    expect(untranslated).toEqual([]);
  });

  it('is what lib/i18n.ts loads for es-US: every area is in src/locales/es-US/messages.ts', () => {
    const index = readFileSync(join(dir('es-US'), 'messages.ts'), 'utf8');
    const missing = areas.filter((name) => !index.includes(`from './${name}'`));
    expect(missing).toEqual([]);
    expect(Object.keys(esUS).length).toBe(Object.keys(catalogue).length);
  });
});
