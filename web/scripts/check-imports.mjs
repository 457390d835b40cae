#!/usr/bin/env node
// The layout rules of STYLE.md (bulletproof-react), checked without a linter:
// - a feature never imports another feature, nor the app layer;
// - shared code (components, lib, config, types, assets) imports neither features nor the app;
// - no barrel files (index.ts), which defeat tree shaking;
// - kebab-case file and folder names.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? [path, ...walk(path)] : [path];
  });
}

const entries = walk(src);
const sources = entries.filter((path) => /\.(ts|tsx)$/.test(path));
const violations = [];

const kebab = /^[a-z0-9]+(-[a-z0-9]+)*$/;
for (const path of entries) {
  const name = path.split(sep).pop();
  if (name === '__tests__') continue;
  const stem = statSync(path).isDirectory() ? name : name.replace(/(\.module)?(\.test)?\.[a-z]+$/, '');
  if (!kebab.test(stem)) violations.push(`${relative(root, path)}: name is not kebab-case`);
  if (/^index\.(ts|tsx)$/.test(name)) violations.push(`${relative(root, path)}: barrel files are not used`);
}

/** Which layer a path under src/ belongs to: "app", "feature:<name>" or "shared". */
function layerOf(path) {
  const parts = relative(src, path).split(sep);
  // main.tsx only starts the app.
  if (parts[0] === 'app' || parts[0] === 'main.tsx') return 'app';
  if (parts[0] === 'features') return `feature:${parts[1]}`;
  if (parts[0] === 'testing') return 'testing';
  return 'shared';
}

const importPattern = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;

for (const file of sources) {
  const text = readFileSync(file, 'utf8');
  const from = layerOf(file);
  const isTest = /\.test\.tsx?$/.test(file) || from === 'testing';
  for (const match of text.matchAll(importPattern)) {
    const specifier = match[1] ?? match[2] ?? match[3];
    let target;
    if (specifier.startsWith('@/')) target = join(src, specifier.slice(2));
    else if (specifier.startsWith('.')) target = resolve(dirname(file), specifier);
    else continue;
    const to = layerOf(target);
    if (isTest || from === to || to === 'shared' || to === 'testing') continue;
    const allowed = from === 'app' && to.startsWith('feature:');
    if (!allowed) violations.push(`${relative(root, file)}: ${from} must not import ${to} (${specifier})`);
  }
}

if (violations.length > 0) {
  console.error(violations.join('\n'));
  console.error(`check-imports: ${violations.length} violation(s) in ${sources.length} files.`);
  process.exit(1);
}
console.log(`check-imports: ${sources.length} files follow the layout rules.`);
