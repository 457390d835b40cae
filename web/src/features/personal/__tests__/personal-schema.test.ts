import { describe, expect, it } from 'vitest';
import { personalDefaults, validatePersonal, type PersonalRules } from '../lib/personal-rules';
import { personalSchema } from '../lib/personal-schema';

const rules: PersonalRules = { requireSSN: false, ssnOnFile: false, today: new Date(2026, 10, 22) };

const valid = {
  ...personalDefaults(null, { firstName: 'Riley', lastName: 'Stone', email: 'riley@example.com' }),
  noMiddleName: true,
  dob: '1990-04-12',
  confirmDOB: '1990-04-12',
  daytimePhoneNumber: '(202) 456-1111',
  driversLicenseNumber: 'D7654321',
  driversLicenseState: 'US-CA',
};

describe('the personal form schema', () => {
  it('accepts what the personal rules accept, unchanged', () => {
    expect(validatePersonal(valid, rules)).toEqual({});
    const result = personalSchema(rules).safeParse(valid);
    expect(result.success).toBe(true);
    expect(result.data).toEqual(valid);
  });

  it('carries each message of the personal rules on its field, a license field by its index', () => {
    const values = { ...valid, drugZip: '123', licenses: [{ number: '', regionId: 5, regionName: '' }] };
    const result = personalSchema(rules).safeParse(values);
    expect(result.success).toBe(false);
    const issues = Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
    expect(issues).toEqual(validatePersonal(values, rules));
    expect(result.error?.issues.find((i) => i.path[0] === 'licenses')?.path).toEqual(['licenses', 0, 'number']);
  });

  it('applies the rules it was built with (an SSN the company requires)', () => {
    const noSsn = { ...valid, ssn: '', confirmSSN: '' };
    expect(personalSchema(rules).safeParse(noSsn).success).toBe(true);
    const required = personalSchema({ ...rules, requireSSN: true }).safeParse(noSsn);
    expect(required.error?.issues.map((i) => i.path.join('.'))).toEqual(['ssn']);
  });
});
