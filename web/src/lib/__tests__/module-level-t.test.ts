import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { t } from '@/lib/i18n';
import { messagesOf } from '@/lib/messages-of';

// Vitest runs in web/.
const src = join(process.cwd(), 'src');

/** The app's own source files: tests and the catalogue itself excluded. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === '__tests__' || name === 'locales' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/**
 * Where a module calls t( while it is imported, outside any function: such a message is made before
 * main.tsx has chosen the language and loaded its catalogue (lib/i18n.ts), so it stays English.
 */
export function moduleLevelCalls(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    // A function's body runs when it is called, not when the module is imported.
    if (ts.isFunctionLike(node)) return;
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 't') {
      const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
      found.push(`${path}:${line + 1}: ${node.getText(file).slice(0, 60)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('messages and the chosen language', () => {
  it('finds a t( call made at import, and none inside a function, a getter or an arrow', () => {
    const text = [
      "const a = t('x');",
      "const list = [{ title: t('y') }];",
      "const b = () => t('z');",
      "function c() { return t('w'); }",
      "const d = { get title() { return t('v'); } };",
    ].join('\n');
    expect(moduleLevelCalls('sample.ts', text)).toEqual(["sample.ts:1: t('x')", "sample.ts:2: t('y')"]);
  });

  it('has no module of src/ call t( at its top level, so every message follows the catalogue loaded at start', () => {
    const calls = sourceFiles(src).flatMap((path) => moduleLevelCalls(relative(src, path), readFileSync(path, 'utf8')));
    expect(calls).toEqual([]);
  });
});

describe('messagesOf', () => {
  it('reads each message when it is read, beside the properties it was given', () => {
    const messages = messagesOf({ generic: 'errors.generic' }, { limit: 3 });
    expect(messages.generic).toBe(t('errors.generic'));
    expect(messages.limit).toBe(3);
    expect(Object.getOwnPropertyDescriptor(messages, 'generic')?.get).toBeTypeOf('function');
  });
});
