// The password rules of NIST SP 800-63B as the server applies them
// (internal/password), checked in the app before submit so the applicant
// learns them while typing. The server checks again and has the last word.
import { messagesOf } from './messages-of';
import { t } from './i18n';

export const MAX_PASSWORD_LENGTH = 128;
const MIN_DIFFERENT_CHARACTERS = 4;
/** An e-mail's local part this short ("al@...") would refuse too many passwords. */
const MIN_LOCAL_PART = 4;

export const passwordMessages = messagesOf(
  {
    required: 'common.password.required',
    control: 'common.password.control',
    identity: 'common.password.identity',
    common: 'common.password.common',
    sequence: 'common.password.sequence',
    mismatch: 'common.password.mismatch',
    confirmRequired: 'common.password.confirmRequired',
  },
  {
    tooShort: (min: number) => t('common.password.tooShort', { min }),
    get tooLong() {
      return t('common.password.tooLong', { max: MAX_PASSWORD_LENGTH });
    },
    get variety() {
      return t('common.password.variety', { min: MIN_DIFFERENT_CHARACTERS });
    },
  },
);

/** Who the password belongs to, when the page knows (the reset page does not). */
export type PasswordOwner = { username?: string | null; email?: string | null };

/** The list of common and leaked passwords, lowercased and NFKC-normalized, or null while not loaded yet. */
export type CommonPasswords = ReadonlySet<string> | null;

/** The rules the checklist shows; `met` is null while it cannot be told yet (the list is loading). */
export type PasswordRule = { id: 'length' | 'variety' | 'identity' | 'common'; label: string; met: boolean | null };

const normalize = (password: string) => password.normalize('NFKC');
/** NFKC, lowercased, NFKC again: the form compared with names and the list, as the server folds. */
const fold = (text: string) => normalize(text).toLowerCase().normalize('NFKC');
const lengthOf = (password: string) => [...normalize(password)].length;

// C0 and C1 controls and DEL; a tab or a newline typed into a password field is a mistake.
const controlCharacter = /\p{Cc}/u;

function containsOwner(password: string, owner: PasswordOwner): boolean {
  const lowered = fold(password);
  const names = [owner.username, owner.email].map((name) => fold(name?.trim() ?? '')).filter(Boolean);
  for (const name of [...names]) {
    const at = name.indexOf('@');
    if (at >= MIN_LOCAL_PART) names.push(name.slice(0, at));
  }
  return names.some((name) => lowered.includes(name));
}

/** Listed as it is, or a listed password said again ("passwordpassword"). */
export function isCommonPassword(password: string, common: ReadonlySet<string>): boolean {
  const key = fold(password);
  if (common.has(key)) return true;
  const chars = [...key];
  for (let size = 1; size <= chars.length / 2; size++) {
    if (chars.length % size !== 0) continue;
    const unit = chars.slice(0, size).join('');
    if (unit.repeat(chars.length / size) === key && common.has(unit)) return true;
  }
  return false;
}

/** Runs people type without choosing (the server's list in internal/password/policy.go). */
const sequences = [
  'abcdefghijklmnopqrstuvwxyz',
  '0123456789',
  'qwertyuiopasdfghjklzxcvbnm',
  '1234567890qwertyuiopasdfghjklzxcvbnm',
  '1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9ol0p',
  'qazwsxedcrfvtgbyhnujmikolp',
];

/** A run of 4 or more characters of one of the sequences, forwards or backwards, wrapping round. */
export function isSequence(folded: string): boolean {
  const chars = [...folded];
  if (chars.length < 4) return false;
  const backwards = chars.reverse().join('');
  return sequences.some((seq) => {
    const cycle = seq.repeat(2 + Math.floor(MAX_PASSWORD_LENGTH / seq.length));
    return cycle.includes(folded) || cycle.includes(backwards);
  });
}

/** Digits, spaces and ASCII punctuation: what people put around a word to meet a rule. */
const padding = /^[0-9 !"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]+|[0-9 !"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]+$/g;

/**
 * A sequence, or a listed password or sequence with only digits and symbols
 * around it ("password123456789"). Without the list (still loading) only the
 * sequences are told.
 */
export function isPredictable(password: string, common: CommonPasswords): boolean {
  const folded = fold(password);
  if (isSequence(folded)) return true;
  const core = folded.replace(padding, '');
  if (core === folded || core === '') return false;
  return isSequence(core) || (common !== null && isCommonPassword(core, common));
}

/** The checklist, updated as the applicant types. */
export const identityRuleLabel = () => t('common.password.ruleIdentity');

/**
 * The checklist rule a server refusal of the password is about (the server's
 * messages in internal/password/policy.go), or null when it names none.
 */
export function ruleRefusedBy(message: string): PasswordRule['id'] | null {
  if (/at (least|most) \d+ characters/i.test(message)) return 'length';
  if (/variety|different characters/i.test(message)) return 'variety';
  if (/username|e-mail/i.test(message)) return 'identity';
  if (/common|leaked|sequence/i.test(message)) return 'common';
  return null;
}

export function passwordRules(
  password: string,
  minLength: number,
  owner: PasswordOwner,
  common: CommonPasswords,
): PasswordRule[] {
  const length = lengthOf(password);
  const rules: PasswordRule[] = [
    {
      id: 'length',
      label: t('common.password.ruleLength', { min: minLength, max: MAX_PASSWORD_LENGTH }),
      met: length >= minLength && length <= MAX_PASSWORD_LENGTH,
    },
    {
      id: 'variety',
      label: t('common.password.ruleVariety', { min: MIN_DIFFERENT_CHARACTERS }),
      met: new Set(normalize(password)).size >= MIN_DIFFERENT_CHARACTERS,
    },
  ];
  if (owner.username || owner.email) {
    rules.push({ id: 'identity', label: identityRuleLabel(), met: password !== '' && !containsOwner(password, owner) });
  }
  rules.push({
    id: 'common',
    label: t('common.password.ruleCommon'),
    met:
      password === '' || isPredictable(password, null)
        ? false
        : common
          ? !isCommonPassword(password, common) && !isPredictable(password, common)
          : null,
  });
  return rules;
}

/** The first rule the password breaks, as the message under the field; undefined when it passes (or the list is not there to tell). */
export function passwordProblem(
  password: string,
  minLength: number,
  owner: PasswordOwner,
  common: CommonPasswords,
): string | undefined {
  if (!password) return passwordMessages.required;
  if (controlCharacter.test(password)) return passwordMessages.control;
  const length = lengthOf(password);
  if (length < minLength) return passwordMessages.tooShort(minLength);
  if (length > MAX_PASSWORD_LENGTH) return passwordMessages.tooLong;
  const normal = normalize(password);
  if (new Set(normal).size < MIN_DIFFERENT_CHARACTERS || /^\p{White_Space}*$/u.test(normal))
    return passwordMessages.variety;
  if (containsOwner(password, owner)) return passwordMessages.identity;
  if (common && isCommonPassword(password, common)) return passwordMessages.common;
  if (isPredictable(password, common)) return passwordMessages.sequence;
  return undefined;
}

/**
 * The list of common and leaked passwords: 380 KB, so a chunk of its own,
 * fetched when a password field is first focused (or on submit), never with
 * /login. Its one source is the server's file. The module loader fetches the
 * chunk once; callers keep the set they get.
 */
export async function loadCommonPasswords(): Promise<ReadonlySet<string>> {
  const { default: text } = await import('../../../internal/password/common-passwords.txt?raw');
  return new Set(
    text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean),
  );
}
