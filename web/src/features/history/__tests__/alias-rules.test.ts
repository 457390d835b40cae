import { describe, expect, it } from 'vitest';
import { emptyAlias, toAliases, validateAliases, type AliasRow } from '../lib/alias-rules';

const ctx = { today: new Date(2026, 10, 22), currentNames: [{ firstName: 'Dana', lastName: 'Demo' }] };
const alias = (more: Partial<AliasRow> = {}): AliasRow => ({
  ...emptyAlias(),
  type: 'maiden',
  firstName: 'Dana',
  lastName: 'Smith',
  ...more,
});

describe('the other names rules', () => {
  it('accepts names with or without months', () => {
    const aliases = [alias(), alias({ type: 'nickname', firstName: 'Dee', from: '2001-01', to: '2001-01' })];
    expect(validateAliases({ noOtherNames: false, aliases }, ctx)).toEqual({});
  });

  it('the explicit "no other names" needs nothing else, an empty list without it does', () => {
    expect(validateAliases({ noOtherNames: true, aliases: [alias({ firstName: '' })] }, ctx)).toEqual({});
    expect(validateAliases({ noOtherNames: false, aliases: [] }, ctx)).toEqual({
      noOtherNames: 'Add a name you have used, or tick "I have not used any other names".',
    });
  });

  it('names each field in error', () => {
    const aliases = [
      alias({ type: '', firstName: ' ', lastName: '' }),
      alias({ type: 'alias', from: '2027-01', to: '2020-13' }),
      alias({ from: '2010-05', to: '2009-01', firstName: 'Dee' }),
    ];
    expect(validateAliases({ noOtherNames: false, aliases }, ctx)).toEqual({
      'aliases.0.type': 'Type of name is required.',
      'aliases.0.firstName': 'First name is required.',
      'aliases.0.lastName': 'Last name is required.',
      'aliases.1.type': 'Choose Type of name from the list.',
      'aliases.1.from': 'Used from cannot be in the future.',
      'aliases.1.to': 'Used until must be a real date.',
      'aliases.2.to': 'Used until cannot be before Used from.',
    });
  });

  it('refuses the current name and a name listed twice', () => {
    const aliases = [
      alias({ firstName: 'dana', lastName: ' DEMO ' }),
      alias(),
      alias({ firstName: 'DANA', type: 'other' }),
    ];
    expect(validateAliases({ noOtherNames: false, aliases }, ctx)).toEqual({
      'aliases.0.firstName': 'This is your current name; list only other names.',
      'aliases.2.firstName': 'You listed this name twice.',
    });
  });

  it('saves an empty list for "no other names", and trimmed names with their ids otherwise', () => {
    expect(toAliases({ noOtherNames: true, aliases: [alias()] })).toEqual([]);
    expect(
      toAliases({ noOtherNames: false, aliases: [alias({ recordId: '0011223344556677', lastName: ' Smith ' })] }),
    ).toEqual([
      {
        id: '0011223344556677',
        type: 'maiden',
        firstName: 'Dana',
        middleName: '',
        lastName: 'Smith',
        suffix: '',
        from: '',
        to: '',
      },
    ]);
  });
});
