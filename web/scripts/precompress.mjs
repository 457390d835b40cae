#!/usr/bin/env node
// Precompression: writes NAME.br (brotli, quality 11) and NAME.gz (gzip,
// level 9) beside each text file of dist/, so the server answers every
// request with the smallest variant the browser accepts and never spends
// CPU compressing (internal/httpapi/app.go, content negotiation). Run after
// `vite build` (`npm run build` does).
//
// Left out: index.html (the server puts the run-time configuration into it
// and compresses it once at start), images and fonts (compressed already),
// files under MIN_BYTES (the headers cost more than the saving) and any
// variant that is not smaller than its file.
//
// The list of extensions is the server's `compressible` (app.go); a Go test
// checks that every such file of the embedded build has both variants.
import { readdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { extname, join, relative, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.webmanifest', '.wasm']);
const MIN_BYTES = 1024;

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

let count = 0;
let before = 0;
let afterBr = 0;
let afterGz = 0;
for (const path of [...files(dist)]) {
  const name = relative(dist, path).split('\\').join('/');
  if (name === 'index.html' || !COMPRESSIBLE.has(extname(name))) continue;
  // A variant left over from an earlier run would not match a changed file.
  for (const ext of ['.br', '.gz']) rmSync(path + ext, { force: true });
  const raw = readFileSync(path);
  if (raw.length < MIN_BYTES) continue;
  const br = brotliCompressSync(raw, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    },
  });
  const gz = gzipSync(raw, { level: 9 });
  if (br.length < raw.length) writeFileSync(path + '.br', br);
  if (gz.length < raw.length) writeFileSync(path + '.gz', gz);
  count++;
  before += raw.length;
  afterBr += Math.min(br.length, raw.length);
  afterGz += Math.min(gz.length, raw.length);
}

const kB = (n) => `${(n / 1000).toFixed(1)} kB`;
console.log(
  `precompress: ${count} files, ${kB(before)} -> brotli ${kB(afterBr)}, gzip ${kB(afterGz)} (dist/, index.html left to the server)`,
);
