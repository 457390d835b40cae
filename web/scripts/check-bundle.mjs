#!/usr/bin/env node
// Bundle budgets: the JavaScript and CSS that /login's first load needs must stay
// at or under LOGIN_BUDGET kB gzip (140 since issue 3; 122.5, then 92 since issue
// 27), and every route at or under LARGEST_ROUTE_BUDGET (issue 27: the heaviest
// route's measured size and a small margin). Reads Vite's build manifest. /login's
// first load is the login shell (src/app/login-shell.tsx): the entry with its static
// imports, and whatever the app imports lazily without waiting for the visitor (a
// prefetch when the browser is idle, a component that mounts at start). So every
// lazy import reachable from the entry counts too, unless LOADED_LATER says why the
// page does not load it before the visitor acts (the router app among them), and
// the routes' pages (src/app/routes/*) load only when visited. A new lazy import
// counts until someone lists it with its reason; e2e/session.spec.ts checks the
// /login budget against what Chromium really fetches on /login.
// Every route is measured the same way, with the router app (ROUTER_APP) and its
// page module (read from src/app/router.tsx); a page of the default layout (a
// guarded one) loads that layout and what a session brings as well (WITH_SESSION).
// Run after `npm run build`.
import { readFileSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

// kB as Vite reports it (1000 bytes): the stricter reading of "KB".
/** Issue 27: 89.44 kB measured with the login shell (src/app/login-shell.tsx), and a small margin. */
const LOGIN_BUDGET = 92 * 1000;
/** The router app: React Router, the route table, guards and layouts (src/app/boot.tsx loads it). */
const ROUTER_APP = 'src/app/app.tsx';
/** The heaviest route when the budget was set (issue 27), its size then plus a margin of about 2%. */
const LARGEST_ROUTE = '/fillable-pdf-form';
const LARGEST_ROUTE_BUDGET = 560 * 1000;
const LOGIN_ROUTE_MODULE = 'src/app/routes/login.tsx';

/** Lazy modules /login does not load until the visitor does something, and why. */
const LOADED_LATER = {
  [ROUTER_APP]:
    "the router app: on /login's first load only once the visitor leaves the page (a login, a link), src/app/boot.tsx",
  'src/components/snackbar/snackbar.tsx':
    'the snackbar (Radix Toast): loads with the first message, or at the first key or pointer press (app/provider.tsx)',
  'src/app/layouts/default-layout.tsx': 'the layout of the guarded pages',
  'src/components/session-timeout/session-timeout.tsx':
    "the session's clock and its warning: only with a session (a login or an invitation link), app/layouts/root-layout.tsx",
  'src/app/layouts/logged-in-chrome.tsx': 'the top bar and user menu: logged in only',
  'src/app/layouts/logged-in-nav.tsx': "the data pages' navigation: logged in only",
  'src/features/auth/components/reset-password-dialog.tsx': 'opens from Forgot Password',
  'src/features/auth/components/refused-invitation.tsx':
    'what happened to a refused invitation link and "Send me a new link": only when such a link sent the visitor to /login',
  'src/features/auth/components/code-login-form.tsx': 'the one-time code form: opens from "Email me a sign-in code"',
  'src/features/auth/lib/login-schema.ts':
    "the login form's schema and zod: load at the first focus in the form (features/auth/components/login-form.tsx)",
  'src/locales/es-US/messages.ts':
    'the es-US catalogue: only a visitor whose language is Spanish loads it, before the page (lib/i18n.ts); /login in en-US is what the budget measures',
  'src/lib/page-change-focus.ts':
    'the focus after a page change: loads with the first focus or the first page change (lib/focus-title.ts)',
  'src/lib/current-user.ts':
    'the query cache of the user and TanStack Query: loads with a login (lib/auth.ts, through the loader main.tsx gives it), or on /login only when already logged in, to send the applicant on (app/guards.ts)',
  'src/features/chat/components/chat-panel.tsx':
    'the chat: opens from the chat dock (features/chat/components/chat-dock.tsx)',
  'node_modules/uqr/dist/index.mjs':
    'the QR code of the hand-off to a phone: only when its dialog opens (features/handoff/components/handoff-dialog.tsx)',
};
/** Lazy modules a page of the default layout (a guarded page, with a session) loads at once. */
const WITH_SESSION = [
  'src/app/layouts/default-layout.tsx',
  'src/app/layouts/logged-in-chrome.tsx',
  'src/app/layouts/logged-in-nav.tsx',
  'src/components/session-timeout/session-timeout.tsx',
  'src/lib/current-user.ts',
];
/** Pages of the routes: router.tsx loads each when its route is visited. */
const ROUTE_PAGE = /^src\/app\/routes\/[^/]+\.tsx$/;

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const manifestPath = join(dist, '.vite', 'manifest.json');

function fail(message) {
  console.error(`check-bundle: ${message}`);
  process.exit(1);
}

if (!existsSync(manifestPath)) fail(`${manifestPath} is missing; run \`npm run build\` first.`);

const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) fail('the manifest has no entry chunk.');

// A module that is imported both lazily and statically (by other lazy
// chunks) gets a shared chunk, keyed "_<name>-<hash>.js" and named after the
// module's file: LOADED_LATER names it by its module all the same.
const stem = (path) =>
  path
    .split('/')
    .pop()
    .replace(/\.[^.]+$/, '');
const sharedChunkOf = (module) =>
  Object.keys(manifest).find((key) => !manifest[key].src && manifest[key].name === stem(module));
// A package's module is keyed by its path from the web folder, which may pass through a link (node_modules).
const isModule = (key, module) =>
  key === module ||
  (module.startsWith('node_modules/') && key.endsWith(`/${module}`)) ||
  (!manifest[key].src && manifest[key].name === stem(module));
const loadedLater = (key) => Object.keys(LOADED_LATER).some((module) => isModule(key, module));

for (const key of [...Object.keys(LOADED_LATER), ...WITH_SESSION]) {
  if (!Object.keys(manifest).some((k) => isModule(k, key)))
    fail(`${key} is listed but the build no longer has it; update the list.`);
}

/** The manifest key of a route's page module. */
function pageKey(module) {
  if (manifest[module]) return module;
  fail(`the manifest has no chunk for ${module}; is the route still lazy?`);
}

/** The routes of src/app/router.tsx: path constant, layout and page module. */
function readRoutes() {
  const source = readFileSync(join(root, 'src', 'app', 'router.tsx'), 'utf8');
  // paths.ts takes its patterns from the table the server embeds too.
  const paths = JSON.parse(readFileSync(join(root, '..', 'internal', 'portal', 'contract', 'routes.json'), 'utf8'));
  const routes = [];
  for (const block of source.split(/\n {2}\{\n/).slice(1)) {
    const name = /path: paths\.(\w+)\.path/.exec(block)?.[1];
    const layout = /layout: '(\w+)'/.exec(block)?.[1];
    const page = /import\('\.\/routes\/([\w-]+)'\)/.exec(block)?.[1];
    if (!name || !layout || !page) continue;
    const path = paths[name] ?? fail(`routes.json has no path named ${name}.`);
    routes.push({ path, layout, module: `src/app/routes/${page}.tsx` });
  }
  if (!routes.some((route) => route.module === LOGIN_ROUTE_MODULE)) fail('no login route found in src/app/router.tsx.');
  return routes;
}

/**
 * What a page loads before the visitor acts: files, lazy modules counted and lazy modules deferred. Without
 * a page, /login's first load (the login shell); with one, a route of the router app.
 */
function measure(page, layout) {
  const files = new Set();
  const seen = new Set();
  const deferred = new Set();
  const withApp = page ? [ROUTER_APP, ...(layout === 'default' ? WITH_SESSION : [])] : [];
  const allowed = new Set(withApp.map((m) => (manifest[m] ? m : sharedChunkOf(m))));
  /** A chunk's file and CSS, the same for every chunk it imports statically, and every lazy import not loaded later. */
  function collect(key) {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`check-bundle: ${key} is not in the manifest`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) collect(imported);
    for (const lazy of chunk.dynamicImports ?? []) {
      if (allowed.has(lazy)) collect(lazy);
      else if (lazy === page) continue;
      else if (loadedLater(lazy) || ROUTE_PAGE.test(lazy) || isModule(lazy, LOGIN_ROUTE_MODULE)) deferred.add(lazy);
      else collect(lazy);
    }
  }
  collect(entryKey);
  for (const key of allowed) collect(key);
  if (page) collect(page);
  const rows = [...files]
    .filter((file) => /\.(js|css)$/.test(file))
    .map((file) => {
      const content = readFileSync(join(dist, file));
      return { file, raw: content.length, gzip: gzipSync(content, { level: 9 }).length };
    })
    .sort((a, b) => b.gzip - a.gzip);
  const total = rows.reduce((sum, row) => sum + row.gzip, 0);
  const lazyCounted = [...seen].filter(
    (key) => key !== entryKey && key !== page && !allowed.has(key) && !key.startsWith('_'),
  );
  return { rows, total, lazyCounted, deferred };
}

const kb = (bytes) => `${(bytes / 1000).toFixed(2)} kB`;
let failed = false;

// /login's first load in detail.
const login = measure(null);
for (const row of login.rows)
  console.log(`  ${kb(row.gzip).padStart(10)} gzip  ${kb(row.raw).padStart(10)} raw  ${row.file}`);
if (login.lazyCounted.length > 0)
  console.log(`Lazy modules counted (not in LOADED_LATER): ${login.lazyCounted.join(', ')}`);
console.log(`Not loaded before the visitor acts: ${[...login.deferred].sort().join(', ')}`);
console.log(
  `/login's first load: ${kb(login.total)} gzip of JS+CSS in ${login.rows.length} files (budget ${kb(LOGIN_BUDGET)}).`,
);
if (login.total > LOGIN_BUDGET) {
  console.error(`check-bundle: /login is over budget by ${kb(login.total - LOGIN_BUDGET)}.`);
  failed = true;
}

// Every route, the heaviest against its budget.
const routes = readRoutes().map((route) => ({ ...route, ...measure(pageKey(route.module), route.layout) }));
routes.sort((a, b) => b.total - a.total);
console.log('Routes (JS+CSS gzip, what each loads before the visitor acts):');
for (const route of routes)
  console.log(`  ${kb(route.total).padStart(10)}  ${String(route.rows.length).padStart(3)} files  ${route.path}`);
for (const route of routes.filter((r) => r.total > LARGEST_ROUTE_BUDGET)) {
  console.error(
    `check-bundle: ${route.path} loads ${kb(route.total)}, over the largest route's budget (${kb(LARGEST_ROUTE_BUDGET)}, measured on ${LARGEST_ROUTE}).`,
  );
  if (route.lazyCounted.length > 0) console.error(`  lazy modules counted: ${route.lazyCounted.join(', ')}`);
  failed = true;
}

if (failed) process.exit(1);
console.log(`check-bundle: within budget (the heaviest route, ${routes[0].path}: ${kb(routes[0].total)}).`);
