import { beforeAll, describe, expect, it } from 'vitest';
import {
  isCommonPassword,
  loadCommonPasswords,
  passwordMessages,
  passwordProblem,
  passwordRules,
  type PasswordOwner,
} from '../password-policy';

const owner: PasswordOwner = { username: 'Dana.Demo@Example.com', email: 'dana.demo@example.com' };
let common: ReadonlySet<string>;
beforeAll(async () => {
  common = await loadCommonPasswords();
});

describe('the password policy (the server’s NIST SP 800-63B rules)', () => {
  it.each<[string, string, string | undefined]>([
    ['empty', '', passwordMessages.required],
    ['shorter than the company minimum', 'short-but-fine', passwordMessages.tooShort(15)],
    ['15 spaces are too little variety', ' '.repeat(15), passwordMessages.variety],
    ['15 times one letter', 'a'.repeat(15), passwordMessages.variety],
    ['3 different characters', 'abcabcabcabcabc', passwordMessages.variety],
    ['15 NULs are control characters', '\u0000'.repeat(15), passwordMessages.control],
    ['a tab inside', 'correct\thorse battery', passwordMessages.control],
    ['longer than 128', 'x1y2'.repeat(33), passwordMessages.tooLong],
    ['the account’s own e-mail', 'dana.demo@example.com', passwordMessages.identity],
    ['containing the username, in another case', 'my DANA.DEMO@EXAMPLE.COM pw', passwordMessages.identity],
    ['containing the e-mail’s local part', 'hello dana.demo 2026!', passwordMessages.identity],
    ['a listed password', 'baseballbaseball', passwordMessages.common],
    ['a listed password in capitals', 'PASSWORDPASSWORD', passwordMessages.common],
    ['a listed password said again', 'dragondragondragon', passwordMessages.common],
    ['a listed password in full-width letters (NFKC)', 'ｐａｓｓｗｏｒｄｐａｓｓｗｏｒｄ', passwordMessages.common],
    ['a run of digits', '123456789012345', passwordMessages.sequence],
    ['a run of digits backwards', '987654321098765', passwordMessages.sequence],
    ['a run of the alphabet', 'abcdefghijklmnop', passwordMessages.sequence],
    ['a keyboard row', 'qwertyuiopasdfg', passwordMessages.sequence],
    ['a keyboard row in capitals', 'QWERTYUIOPASDFG', passwordMessages.sequence],
    ['keyboard columns', '1qaz2wsx3edc4rfv5t', passwordMessages.sequence],
    ['a listed password with digits', 'Password123456789', passwordMessages.sequence],
    ['a listed password with symbols and digits', '!!!sunshine2026!!!', passwordMessages.sequence],
    ['a keyboard row with symbols', 'qwertyuiop!!!!!!', passwordMessages.sequence],
    ['random digits', '839201746512093', undefined],
    ['a passphrase ending in punctuation', 'I love my cat Felix!', undefined],
    ['words around digits', 'purple 1234 elephant', undefined],
    ['a passphrase', 'correct horse battery staple', undefined],
    ['exactly 128', 'x1y2'.repeat(32), undefined],
    ['non-Latin letters', 'пароль-для-портала-2026', undefined],
  ])('%s', (_name, password, message) => {
    expect(passwordProblem(password, 15, owner, common)).toBe(message);
  });

  it('counts length in characters after NFKC, not UTF-16 units', () => {
    expect(passwordProblem('😀😁😂😃😄😅😆😇😈😉😊😋😌😍', 15, {}, common)).toBe(passwordMessages.tooShort(15));
    expect(passwordProblem('😀😁😂😃😄😅😆😇😈😉😊😋😌😍😎', 15, {}, common)).toBeUndefined();
  });

  it('ignores an e-mail local part shorter than 4 characters', () => {
    expect(passwordProblem('al is my name, really', 15, { email: 'al@example.com' }, common)).toBeUndefined();
  });

  it('tells a sequence before the list has loaded', () => {
    expect(passwordProblem('qwertyuiopasdfg', 15, {}, null)).toBe(passwordMessages.sequence);
    expect(passwordRules('qwertyuiopasdfg', 15, {}, null).find((r) => r.id === 'common')?.met).toBe(false);
  });

  it('without the list yet, says nothing about it', () => {
    expect(passwordProblem('passwordpassword', 15, {}, null)).toBeUndefined();
    expect(passwordRules('passwordpassword', 15, {}, null).find((r) => r.id === 'common')?.met).toBeNull();
  });

  it('the checklist follows the typing, and shows the identity rule only when the owner is known', () => {
    const met = (password: string, who: PasswordOwner = owner) =>
      Object.fromEntries(passwordRules(password, 15, who, common).map((r) => [r.id, r.met]));
    expect(met('')).toEqual({ length: false, variety: false, identity: false, common: false });
    expect(met('aaaaaaaaaaaaaaa')).toEqual({ length: true, variety: false, identity: true, common: true });
    expect(met('correct horse battery staple')).toEqual({ length: true, variety: true, identity: true, common: true });
    expect(met('baseballbaseball', {})).toEqual({ length: true, variety: true, common: false });
  });

  it('the list is the server’s file, lowercased', () => {
    expect(common.size).toBeGreaterThan(40000);
    expect(isCommonPassword('123456', common)).toBe(true);
    expect(isCommonPassword('Tr0ub4dor&3-horse-staple', common)).toBe(false);
  });
});
