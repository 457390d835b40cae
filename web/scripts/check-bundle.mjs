#!/usr/bin/env node
// Bundle budget: the JavaScript and CSS that /login loads must stay at or
// under 140 KB gzip (issue 3). Reads Vite's build manifest and adds up the
// entry with its static imports, and the login route's lazy chunk with its
// static imports (not their dynamic imports: those load later, on demand).
// Run after `npm run build`.
import { readFileSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

// kB as Vite reports it (1000 bytes): the stricter reading of "140 KB".
const BUDGET_BYTES = 140 * 1000;
const LOGIN_ROUTE_MODULE = 'src/app/routes/login.tsx';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const manifestPath = join(dist, '.vite', 'manifest.json');

if (!existsSync(manifestPath)) {
  console.error(`check-bundle: ${manifestPath} is missing; run \`npm run build\` first.`);
  process.exit(1);
}

const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) {
  console.error('check-bundle: the manifest has no entry chunk.');
  process.exit(1);
}
if (!manifest[LOGIN_ROUTE_MODULE]) {
  console.error(`check-bundle: the manifest has no chunk for ${LOGIN_ROUTE_MODULE}; is the login route still lazy?`);
  process.exit(1);
}

/** A chunk's file, its CSS, and the same for every chunk it imports statically. */
function collect(key, files = new Set(), seen = new Set()) {
  if (seen.has(key)) return files;
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) throw new Error(`check-bundle: ${key} is not in the manifest`);
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const imported of chunk.imports ?? []) collect(imported, files, seen);
  return files;
}

const files = new Set([...collect(entryKey), ...collect(LOGIN_ROUTE_MODULE)]);
const rows = [...files]
  .filter((file) => /\.(js|css)$/.test(file))
  .map((file) => {
    const content = readFileSync(join(dist, file));
    return { file, raw: content.length, gzip: gzipSync(content, { level: 9 }).length };
  })
  .sort((a, b) => b.gzip - a.gzip);

const kb = (bytes) => `${(bytes / 1000).toFixed(2)} kB`;
const total = rows.reduce((sum, row) => sum + row.gzip, 0);
for (const row of rows) console.log(`  ${kb(row.gzip).padStart(10)} gzip  ${kb(row.raw).padStart(10)} raw  ${row.file}`);
console.log(`/login loads ${kb(total)} gzip of JS+CSS in ${rows.length} files (budget ${kb(BUDGET_BYTES)}).`);

if (total > BUDGET_BYTES) {
  console.error(`check-bundle: over budget by ${kb(total - BUDGET_BYTES)}.`);
  process.exit(1);
}
console.log('check-bundle: within budget.');
