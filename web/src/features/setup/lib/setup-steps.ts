// The setup wizard's steps (spec section 2) and where an applicant resumes.
import '@/features/setup/lib/messages';
import { t, type MessageKey } from '@/lib/i18n';

export type SetupStepId = 'welcome' | 'password' | 'login' | 'legal' | 'personal';

const titles: Record<SetupStepId, MessageKey> = {
  welcome: 'setup.step.welcome',
  password: 'setup.step.password',
  login: 'setup.step.login',
  legal: 'setup.step.legal',
  personal: 'setup.step.personal',
};

/** The steps in order; each title is read in the chosen language (a title made at import would stay English). */
export const setupSteps: { readonly id: SetupStepId; readonly title: string }[] = (
  Object.keys(titles) as SetupStepId[]
).map((id) => ({
  id,
  get title() {
    return t(titles[id]);
  },
}));

/** A full-profile applicant gets only the first 3 steps. */
export function stepsFor(fullProfile: boolean) {
  return fullProfile ? setupSteps.slice(0, 3) : setupSteps;
}

export type SetupProgress = {
  welcomed: boolean;
  hasPassword: boolean;
  loggedIn: boolean;
  legalSigned: boolean;
  personalSaved: boolean;
};

export function stepDone(id: SetupStepId, p: SetupProgress): boolean {
  switch (id) {
    case 'welcome':
      return p.welcomed || p.hasPassword;
    case 'password':
      return p.hasPassword;
    case 'login':
      return p.loggedIn;
    case 'legal':
      return p.legalSigned;
    case 'personal':
      return p.personalSaved;
  }
}

/** The first unfinished step, or null when setup can be completed. */
export function firstOpenStep(fullProfile: boolean, p: SetupProgress): SetupStepId | null {
  return stepsFor(fullProfile).find((s) => !stepDone(s.id, p))?.id ?? null;
}

/**
 * Steps an applicant may go back to once done (the browser's Back button):
 * the welcome text, and the signed legal notices to read again. Creating a
 * password or logging in again makes no sense once done.
 */
const revisitable: ReadonlySet<SetupStepId> = new Set(['welcome', 'legal']);

export function isRevisitable(id: SetupStepId): boolean {
  return revisitable.has(id);
}

/**
 * The step to show for a requested one (?step= in the URL): the requested step
 * when it is the first open one, or a revisitable step before it; otherwise the
 * first open step, so history cannot skip a step or reopen a finished one.
 */
export function stepToShow(
  fullProfile: boolean,
  active: SetupStepId | null,
  requested: string | null,
): SetupStepId | null {
  if (active === null || requested === null) return active;
  const ids = stepsFor(fullProfile).map((s) => s.id);
  const index = ids.indexOf(requested as SetupStepId);
  if (index < 0 || index > ids.indexOf(active)) return active;
  return requested === active || isRevisitable(requested as SetupStepId) ? (requested as SetupStepId) : active;
}
