// The password rules of NIST SP 800-63B as the server applies them
// (internal/password), checked in the app before submit so the applicant
// learns them while typing. The server checks again and has the last word.

export const MAX_PASSWORD_LENGTH = 128;
const MIN_DIFFERENT_CHARACTERS = 4;
/** An e-mail's local part this short ("al@...") would refuse too many passwords. */
const MIN_LOCAL_PART = 4;

export const passwordMessages = {
  required: 'Password is required',
  tooShort: (min: number) => `Password must be at least ${min} characters long.`,
  tooLong: `Password must be at most ${MAX_PASSWORD_LENGTH} characters long.`,
  control: 'Your password must not contain control characters.',
  identity: 'Your password must not contain your username or e-mail address.',
  variety: `Use a password with more variety: at least ${MIN_DIFFERENT_CHARACTERS} different characters.`,
  common: 'Choose a less common password: this one appears in lists of leaked passwords.',
  mismatch: 'The passwords do not match.',
  confirmRequired: 'Please confirm the password',
} as const;

/** Who the password belongs to, when the page knows (the reset page does not). */
export type PasswordOwner = { username?: string | null; email?: string | null };

/** The list of common and leaked passwords, lowercased and NFKC-normalized, or null while not loaded yet. */
export type CommonPasswords = ReadonlySet<string> | null;

/** The rules the checklist shows; `met` is null while it cannot be told yet (the list is loading). */
export type PasswordRule = { id: 'length' | 'variety' | 'identity' | 'common'; label: string; met: boolean | null };

const normalize = (password: string) => password.normalize('NFKC');
const lengthOf = (password: string) => [...normalize(password)].length;

// C0 and C1 controls and DEL; a tab or a newline typed into a password field is a mistake.
const controlCharacter = /\p{Cc}/u;

function containsOwner(password: string, owner: PasswordOwner): boolean {
  const lowered = normalize(password).toLowerCase();
  const names = [owner.username, owner.email]
    .map((name) => normalize(name?.trim() ?? '').toLowerCase())
    .filter(Boolean);
  for (const name of [...names]) {
    const at = name.indexOf('@');
    if (at >= MIN_LOCAL_PART) names.push(name.slice(0, at));
  }
  return names.some((name) => lowered.includes(name));
}

/** Listed as it is, or a listed password said again ("passwordpassword"). */
export function isCommonPassword(password: string, common: ReadonlySet<string>): boolean {
  const key = normalize(password).toLowerCase();
  if (common.has(key)) return true;
  const chars = [...key];
  for (let size = 1; size <= chars.length / 2; size++) {
    if (chars.length % size !== 0) continue;
    const unit = chars.slice(0, size).join('');
    if (unit.repeat(chars.length / size) === key && common.has(unit)) return true;
  }
  return false;
}

/** The checklist, updated as the applicant types. */
export function passwordRules(password: string, minLength: number, owner: PasswordOwner, common: CommonPasswords): PasswordRule[] {
  const length = lengthOf(password);
  const rules: PasswordRule[] = [
    { id: 'length', label: `${minLength} to ${MAX_PASSWORD_LENGTH} characters`, met: length >= minLength && length <= MAX_PASSWORD_LENGTH },
    {
      id: 'variety',
      label: `At least ${MIN_DIFFERENT_CHARACTERS} different characters`,
      met: new Set(normalize(password)).size >= MIN_DIFFERENT_CHARACTERS,
    },
  ];
  if (owner.username || owner.email) {
    rules.push({ id: 'identity', label: 'Not your username or e-mail address', met: password !== '' && !containsOwner(password, owner) });
  }
  rules.push({
    id: 'common',
    label: 'Not a common or leaked password',
    met: password === '' ? false : common ? !isCommonPassword(password, common) : null,
  });
  return rules;
}

/** The first rule the password breaks, as the message under the field; undefined when it passes (or the list is not there to tell). */
export function passwordProblem(password: string, minLength: number, owner: PasswordOwner, common: CommonPasswords): string | undefined {
  if (!password) return passwordMessages.required;
  if (controlCharacter.test(password)) return passwordMessages.control;
  const length = lengthOf(password);
  if (length < minLength) return passwordMessages.tooShort(minLength);
  if (length > MAX_PASSWORD_LENGTH) return passwordMessages.tooLong;
  if (containsOwner(password, owner)) return passwordMessages.identity;
  if (new Set(normalize(password)).size < MIN_DIFFERENT_CHARACTERS) return passwordMessages.variety;
  if (common && isCommonPassword(password, common)) return passwordMessages.common;
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
  return new Set(text.split('\n').map((line) => line.trim()).filter(Boolean));
}
