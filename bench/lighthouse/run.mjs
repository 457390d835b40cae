#!/usr/bin/env node
// Lighthouse (mobile emulation, default simulated throttling, performance
// category) on three pages of a running portal: /login, /setup reached
// through an invitation link, and a page of a logged-in applicant.
//
//   node bench/lighthouse/run.mjs --base http://127.0.0.1:8080 \
//     --invitation 'http://127.0.0.1:8080/setup?token=...' \
//     --username demo.applicant@example.com --password '...'
//
// stdout: one JSON line, the median of the runs of each page:
//   {"pages":[{"name":"/login","performance":0.97,"lcpMs":1234,"tbtMs":12,"fcpMs":900,"transferKB":120.5,...}]}
// stderr: what it does, each run's figures and the opportunities Lighthouse lists.
//
// Options: --runs N (3), --page PATH (the logged-in page, "/"), --chromium PATH
// (/usr/bin/chromium, or $CHROMIUM), --only login,setup,user (all three),
// --reports DIR (keeps each run's full Lighthouse JSON report there).
//
// benchmarkIndex in the output is Lighthouse's own measure of the CPU's speed
// during the runs: a low figure (a busy machine) makes TBT and LCP worse.
//
// Why it drives the browser itself rather than running the lighthouse CLI:
// the app keeps its session in sessionStorage, which belongs to one tab. So
// each page gets its own tab, prepared with playwright-core (open the
// invitation, or log in through the form), and Lighthouse audits that same
// tab (through puppeteer-core, the API Lighthouse takes a page from) with
// its storage reset off; the HTTP cache is emptied before every run instead,
// so each run is a first visit as far as the network goes.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

// Lighthouse's opportunities and diagnostics that serving or the bundle can act on.
const OPPORTUNITIES = [
  'uses-text-compression',
  'uses-long-cache-ttl',
  'render-blocking-resources',
  'unused-javascript',
  'unused-css-rules',
  'unminified-javascript',
  'unminified-css',
  'server-response-time',
  'redirects',
  'critical-request-chains',
  'largest-contentful-paint-element',
  'bootup-time',
  'mainthread-work-breakdown',
  'total-byte-weight',
  'long-tasks',
];

function usage(message) {
  if (message) console.error(`run.mjs: ${message}`);
  console.error(
    'usage: node bench/lighthouse/run.mjs --base URL --invitation URL --username U --password P [--runs N] [--page PATH] [--chromium PATH] [--only login,setup,user] [--reports DIR]',
  );
  process.exit(2);
}

function options() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        base: { type: 'string' },
        invitation: { type: 'string' },
        username: { type: 'string' },
        password: { type: 'string' },
        runs: { type: 'string', default: '3' },
        page: { type: 'string', default: '/' },
        chromium: { type: 'string', default: process.env.CHROMIUM || '/usr/bin/chromium' },
        only: { type: 'string', default: 'login,setup,user' },
        reports: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    usage(error.message);
  }
  if (values.help) usage();
  const only = new Set(values.only.split(',').map((s) => s.trim()));
  for (const name of only) {
    if (!['login', 'setup', 'user'].includes(name)) usage(`--only: unknown page ${name}`);
  }
  if (!values.base) usage('--base is required');
  if (only.has('setup') && !values.invitation) usage('--invitation is required');
  if (only.has('user') && (!values.username || !values.password)) usage('--username and --password are required');
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) usage('--runs must be a whole number above 0');
  return { ...values, base: new URL(values.base), runs, only };
}

function median(numbers) {
  const sorted = [...numbers].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const round = (n, digits = 0) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The figures of one Lighthouse run. */
function figures(lhr) {
  const audit = (id) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    performance: lhr.categories.performance.score,
    lcpMs: audit('largest-contentful-paint'),
    tbtMs: audit('total-blocking-time'),
    fcpMs: audit('first-contentful-paint'),
    transferKB: audit('total-byte-weight') / 1024,
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? NaN,
  };
}

/** The opportunities of one run that still cost something, for the human reader. */
function opportunities(lhr) {
  const lines = [];
  for (const id of OPPORTUNITIES) {
    const audit = lhr.audits[id];
    if (!audit || audit.scoreDisplayMode === 'notApplicable') continue;
    const passed = audit.score !== null && audit.score >= 0.9;
    const savings = [];
    if (audit.details?.overallSavingsMs) savings.push(`${round(audit.details.overallSavingsMs)} ms`);
    if (audit.details?.overallSavingsBytes) savings.push(`${round(audit.details.overallSavingsBytes / 1024, 1)} KB`);
    const value = audit.displayValue ? ` ${audit.displayValue}` : '';
    const saving = savings.length ? ` (saves ${savings.join(', ')})` : '';
    lines.push(`    ${passed ? 'ok  ' : 'FIX '} ${id}:${value}${saving}`);
    // The items name the files: the worst few say where to look.
    if (!passed && ['opportunity', 'table'].includes(audit.details?.type)) {
      for (const item of (audit.details.items ?? []).slice(0, 4)) {
        if (typeof item.url !== 'string') continue;
        const bytes = item.wastedBytes ? ` ${round(item.wastedBytes / 1024, 1)} KB` : '';
        const ms = item.wastedMs ? ` ${round(item.wastedMs)} ms` : item.total ? ` ${round(item.total)} ms` : '';
        lines.push(`         ${item.url}${bytes}${ms}`);
      }
    }
  }
  return lines;
}

// Lighthouse now and then fails a run on a busy machine (NO_NAVSTART, NO_FCP):
// such a run is tried again, up to this many times.
const RETRIES = 2;

/** One Lighthouse run on the tab page, as a first visit as far as the network goes; the session stays. */
async function audit(url, page, cdp) {
  for (let attempt = 0; ; attempt++) {
    await cdp.send('Network.clearBrowserCache');
    const result = await lighthouse(
      url,
      { logLevel: 'error', output: 'json', onlyCategories: ['performance'], disableStorageReset: true },
      undefined,
      page,
    );
    const error = !result
      ? 'no result'
      : result.lhr.runtimeError && `${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`;
    if (!error) {
      for (const warning of result.lhr.runWarnings ?? []) console.error(`  lighthouse: ${warning}`);
      return result.lhr;
    }
    if (attempt >= RETRIES) throw new Error(`lighthouse on ${url}: ${error}`);
    console.error(`  lighthouse on ${url}: ${error}; trying again`);
  }
}

/** The DevTools port Chromium chose: it writes it into the profile when started with port 0. */
async function devToolsPort(profile) {
  for (let i = 0; i < 100; i++) {
    try {
      const [port] = (await readFile(join(profile, 'DevToolsActivePort'), 'utf8')).split('\n');
      if (port) return Number(port);
    } catch {
      // not written yet
    }
    await sleep(100);
  }
  throw new Error('chromium did not write DevToolsActivePort');
}

/**
 * The puppeteer page of the tab that playwright has open at url: the one
 * page tab there is, since every earlier tab has been closed.
 */
async function puppeteerPage(browser, url) {
  for (let i = 0; i < 50; i++) {
    const pages = (await browser.pages()).filter((p) => p.url().startsWith('http'));
    const page = pages.find((p) => p.url() === url) ?? (pages.length === 1 ? pages[0] : undefined);
    if (page) return page;
    await sleep(100);
  }
  throw new Error(`no tab at ${url}`);
}

async function main() {
  const opts = options();
  const at = (path) => new URL(path, opts.base).href;
  const profile = await mkdtemp(join(tmpdir(), 'portal-lighthouse-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: opts.chromium,
    headless: true,
    args: [...CHROMIUM_FLAGS, '--remote-debugging-port=0'],
    // Lighthouse emulates the phone; playwright's own viewport would fight it.
    viewport: null,
    locale: 'en-US',
  });
  let browser;
  const results = [];
  try {
    browser = await puppeteer.connect({
      browserURL: `http://127.0.0.1:${await devToolsPort(profile)}`,
      defaultViewport: null,
    });

    // prepare opens a fresh tab (a fresh sessionStorage) and returns the URL to audit.
    const pages = [
      {
        key: 'login',
        name: '/login',
        prepare: async (tab) => {
          await tab.goto(at('/login'), { waitUntil: 'networkidle' });
          return at('/login');
        },
      },
      {
        key: 'setup',
        name: '/setup',
        prepare: async (tab) => {
          await tab.goto(opts.invitation);
          // The app exchanges the link's token, then shows the setup page.
          await tab.waitForURL((u) => u.pathname === '/setup' || u.pathname.startsWith('/setup/'), { timeout: 30_000 });
          await tab.waitForLoadState('networkidle');
          if (new URL(tab.url()).pathname === '/login')
            throw new Error('the invitation link led to /login: it is used or expired');
          return tab.url();
        },
      },
      {
        key: 'user',
        name: opts.page,
        prepare: async (tab) => {
          await tab.goto(at('/login'));
          await tab.locator('input[autocomplete="username"]').fill(opts.username);
          await tab.locator('input[autocomplete="current-password"]').fill(opts.password);
          await tab.locator('input[autocomplete="current-password"]').press('Enter');
          await tab.waitForURL((u) => u.pathname !== '/login', { timeout: 30_000 });
          // Not 'networkidle': a logged-in page keeps its event stream open, so the network is
          // never idle. The page's heading says it has rendered.
          await tab.locator('h1').first().waitFor({ timeout: 30_000 });
          return at(opts.page);
        },
      },
    ].filter((p) => opts.only.has(p.key));

    for (const spec of pages) {
      for (const old of context.pages()) await old.close();
      const tab = await context.newPage();
      const url = await spec.prepare(tab);
      const page = await puppeteerPage(browser, tab.url());
      const cdp = await page.createCDPSession();
      console.error(`${spec.name}: auditing ${url}, ${opts.runs} runs`);
      const runs = [];
      let lastLhr;
      for (let i = 0; i < opts.runs; i++) {
        const lhr = await audit(url, page, cdp);
        const final = new URL(lhr.finalDisplayedUrl);
        if (final.origin === opts.base.origin && final.pathname === '/login' && spec.key !== 'login') {
          throw new Error(`${url} went to /login: the session did not hold`);
        }
        if (opts.reports) {
          await mkdir(opts.reports, { recursive: true });
          await writeFile(join(opts.reports, `${spec.key}-${i + 1}.json`), JSON.stringify(lhr));
        }
        const f = figures(lhr);
        runs.push(f);
        lastLhr = lhr;
        console.error(
          `  run ${i + 1}: performance ${f.performance} LCP ${round(f.lcpMs)} ms TBT ${round(f.tbtMs)} ms FCP ${round(f.fcpMs)} ms transfer ${round(f.transferKB, 1)} KB benchmarkIndex ${round(f.benchmarkIndex)} (landed on ${final.pathname})`,
        );
      }
      await cdp.detach();
      const summary = { name: spec.name };
      for (const key of ['performance', 'lcpMs', 'tbtMs', 'fcpMs', 'transferKB', 'benchmarkIndex']) {
        const m = median(runs.map((r) => r[key]));
        summary[key] = key === 'performance' ? round(m, 2) : key === 'transferKB' ? round(m, 1) : round(m);
      }
      summary.finalPath = new URL(lastLhr.finalDisplayedUrl).pathname;
      results.push(summary);
      console.error(`  median: ${JSON.stringify(summary)}`);
      console.error('  opportunities and diagnostics (last run):');
      for (const line of opportunities(lastLhr)) console.error(line);
    }
  } finally {
    await browser?.disconnect();
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
  process.stdout.write(`${JSON.stringify({ pages: results })}\n`);
}

main().catch((error) => {
  console.error(`run.mjs: ${error.stack ?? error}`);
  process.exit(1);
});
