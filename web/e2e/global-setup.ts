// Starts the real binary once for the whole run:
//   ../bin/portal serve --addr 127.0.0.1:PORT --data TMPDIR --demo
// waits for /healthz, hands the address and the demo accounts to the tests
// through environment variables, and stops the server afterwards.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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

export default async function globalSetup() {
  if (!existsSync(portalBinary)) {
    throw new Error(`${portalBinary} does not exist: build it first (make build), or point PORTAL_BIN at a binary.`);
  }
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
    Object.assign(process.env, {
      PORTAL_E2E_BASE_URL: baseURL,
      PORTAL_E2E_DATA: dataDir,
      PORTAL_E2E_BIN: portalBinary,
      PORTAL_E2E_INVITATION: invitation,
      PORTAL_E2E_USERNAME: username,
      PORTAL_E2E_PASSWORD: password.trim(),
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
}
