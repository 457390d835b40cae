// Starts the real binary once per worker for the whole run:
//   ../bin/portal serve --addr 127.0.0.1:PORT --data TMPDIR --demo
// waits for /healthz, hands the addresses and the demo accounts to the tests
// through an environment variable, and stops the servers afterwards.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FullConfig } from '@playwright/test';

const here = dirname(fileURLToPath(import.meta.url));
export const portalBinary = resolve(process.env.PORTAL_BIN ?? join(here, '..', '..', 'bin', 'portal'));

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

async function waitForHealth(baseURL: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`portal serve exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`${baseURL}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`portal serve did not answer ${baseURL}/healthz within 30 s:\n${output()}`);
}

function waitForLine(pattern: RegExp, text: () => string, timeoutMs = 10_000): Promise<RegExpMatchArray> {
  return new Promise((resolveMatch, reject) => {
    const started = Date.now();
    const check = () => {
      const match = text().match(pattern);
      if (match) return resolveMatch(match);
      if (Date.now() - started > timeoutMs) return reject(new Error(`no line matching ${pattern} in:\n${text()}`));
      setTimeout(check, 100);
    };
    check();
  });
}

type Started = { server: Record<string, string>; stop: () => Promise<void> };

/** One `portal serve --demo` on a free port with a data folder of its own. */
async function startServer(): Promise<Started> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-e2e-'));
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;

  const child = spawn(portalBinary, ['serve', '--addr', `127.0.0.1:${port}`, '--data', dataDir, '--demo'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORTAL_LOG_LEVEL: process.env.PORTAL_LOG_LEVEL ?? 'warn' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const output = () => `stdout:\n${stdout}\nstderr:\n${stderr}`;

  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForHealth(baseURL, child, output);
    const [, invitation] = await waitForLine(/^Demo invitation link: (\S+)$/m, () => stdout);
    const [, username, password] = await waitForLine(/^Demo login: (\S+) \/ (.+)$/m, () => stdout);
    const server = { baseURL, dataDir, binary: portalBinary, demoInvitation: invitation, demoUsername: username };
    return { server: { ...server, demoPassword: password.trim() }, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * A server per worker, started side by side: spec files (and the tests of a file that asks for it) run
 * in parallel, each on its worker's server and data folder (fixtures.ts picks it by
 * TEST_PARALLEL_INDEX), one at a time per server, so no test sees the company preferences another is
 * changing.
 */
export default async function globalSetup(config: FullConfig) {
  if (!existsSync(portalBinary)) {
    throw new Error(`${portalBinary} does not exist: build it first (make build), or point PORTAL_BIN at a binary.`);
  }
  const results = await Promise.allSettled(Array.from({ length: Math.max(1, config.workers) }, () => startServer()));
  const started = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const stopAll = async () => {
    await Promise.all(started.map((s) => s.stop()));
  };
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  process.env.PORTAL_E2E_SERVERS = JSON.stringify(started.map((s) => s.server));
  return stopAll;
}
