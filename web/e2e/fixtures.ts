// What every browser test shares: its worker's server started by global-setup.ts, the
// portal CLI against its data folder, and the accessibility check.
import { execFileSync } from 'node:child_process';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';

type Server = {
  baseURL: string;
  dataDir: string;
  binary: string;
  demoInvitation: string;
  demoUsername: string;
  demoPassword: string;
};

const servers = JSON.parse(process.env.PORTAL_E2E_SERVERS ?? '[]') as Server[];

/**
 * This worker's server (global-setup.ts starts one per worker): TEST_PARALLEL_INDEX is the worker's
 * slot, from 0 to workers - 1, and a worker started after another failed takes its slot.
 */
export const portal: Server = servers[Number(process.env.TEST_PARALLEL_INDEX ?? 0) % Math.max(1, servers.length)];

/**
 * Runs `portal COMMAND --data DIR ...` and returns its standard output. COMMAND may be two words
 * (`report upload`, `company set-pref`): the flags follow both.
 */
export function portalCli(command: string, ...args: string[]): string {
  return execFileSync(portal.binary, [...command.split(' '), '--data', portal.dataDir, ...args], {
    encoding: 'utf8',
  });
}

/** `portal invite` prints the invitation URL as the last line; flags such as `--work-state US-CA` go on. */
export function inviteApplicant(email: string, firstName = 'Eve', lastName = 'Example', ...flags: string[]): string {
  const out = portalCli(
    'invite',
    '--email',
    email,
    '--first-name',
    firstName,
    '--last-name',
    lastName,
    '--base-url',
    portal.baseURL,
    ...flags,
  );
  return out.trim().split('\n').pop() as string;
}

/**
 * Fails on any serious or critical axe-core violation of the page as it is
 * now; with `moderate`, on moderate ones too (landmarks: landmark-unique,
 * region), for the pages checked for them; with `anyImpact`, on every
 * violation, minor ones included: the standard for the pages of issue 10.
 */
export async function expectAccessible(page: Page, context = page.url(), { moderate = false, anyImpact = false } = {}) {
  // Only the violations are read: axe then skips building a selector for every node that passed. A
  // page without frames is checked in legacy mode, in the page itself: otherwise AxeBuilder opens a
  // new tab for every pass to merge the frames' partial results. Both give the same violations (checked
  // on a page with faults planted, with and without a frame) in well under half the time: issue 27,
  // the 66 passes of reflow.spec.ts took 54 s instead of 137 s.
  const builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] });
  if (page.frames().length === 1) builder.setLegacyMode();
  const results = await builder.analyze();
  const impacts = moderate ? ['moderate', 'serious', 'critical'] : ['serious', 'critical'];
  const serious = anyImpact ? results.violations : results.violations.filter((v) => impacts.includes(v.impact ?? ''));
  const report = serious
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary}`).join('\n')}`,
    )
    .join('\n');
  expect(serious, `axe on ${context}:\n${report}`).toEqual([]);
}

export const test = base.extend({
  baseURL: async ({}, use) => {
    await use(portal.baseURL);
  },
});

export { expect };
