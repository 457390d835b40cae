import { describe, expect, it } from 'vitest';
import { coverageProblems, emptyAddress, toAddresses, validateAddresses, type AddressRow } from '../lib/address-rules';
import { coverageStartOf, monthLabel } from '../lib/months';

const today = new Date(2026, 10, 22);
const ctx = { today, coverageStart: '2019-11', requiredYears: 7, stateCodes: new Set(['US-CA', 'US-ID', 'US-AA']) };

const address = (from: string, to: string, more: Partial<AddressRow> = {}): AddressRow => ({
  ...emptyAddress(to === ''),
  street1: `${from} Main St`,
  city: 'Fresno',
  state: 'US-CA',
  zip: '93701',
  from,
  to,
  ...more,
});

describe('months', () => {
  it('names months as the server does, and counts the start back from today', () => {
    expect(monthLabel('2019-11')).toBe('Nov 2019');
    expect(monthLabel('2020-01')).toBe('Jan 2020');
    expect(coverageStartOf(today, 7)).toBe('2019-11');
    expect(coverageStartOf(new Date(2026, 0, 5), 3)).toBe('2023-01');
  });
});

describe('the coverage of the address history', () => {
  const cases: { name: string; rows: AddressRow[]; want: { field: string | null; message: string }[] }[] = [
    {
      name: 'one current address since before the start covers everything',
      rows: [address('2015-04', '')],
      want: [],
    },
    {
      name: 'periods may share their boundary month',
      rows: [address('2021-06', ''), address('2018-01', '2021-06')],
      want: [],
    },
    {
      name: 'periods that follow month after month leave no gap',
      rows: [address('2021-07', ''), address('2018-01', '2021-06')],
      want: [],
    },
    {
      name: 'a gap goes on the from of the address after it',
      rows: [address('2021-09', ''), address('2018-01', '2021-06')],
      want: [
        {
          field: 'addresses.0.from',
          message: 'No address for Jul 2021 to Aug 2021. Add where you lived then or change these dates.',
        },
      ],
    },
    {
      name: 'an overlap of more than the boundary month goes on the later address',
      rows: [address('2021-05', '', { street1: '9 Elm St' }), address('2018-01', '2021-06', { street1: '1 Oak Ave' })],
      want: [{ field: 'addresses.0.from', message: 'This period overlaps your address at 1 Oak Ave.' }],
    },
    {
      name: 'a one-month stay inside another period overlaps it, as on the server',
      rows: [
        address('2021-06', '', { street1: '9 Elm St' }),
        address('2018-01', '2021-06', { street1: '1 Oak Ave' }),
        address('2019-03', '2019-03', { street1: '5 Pine Rd' }),
      ],
      want: [{ field: 'addresses.2.from', message: 'This period overlaps your address at 1 Oak Ave.' }],
    },
    {
      name: 'a history that starts late says how far back it must go, on the oldest address',
      rows: [address('2022-01', ''), address('2020-03', '2022-01')],
      want: [{ field: 'addresses.1.from', message: 'Your addresses must go back to Nov 2019 (7 years).' }],
    },
    {
      // Found in the browser: the app said "must go back" on the oldest address, the server the gap.
      name: 'a gap across the first month, after an older address, is a gap on the address after it',
      rows: [address('2020-01', ''), address('2010-01', '2019-06')],
      want: [
        {
          field: 'addresses.0.from',
          message: 'No address for Nov 2019 to Dec 2019. Add where you lived then or change these dates.',
        },
      ],
    },
    {
      name: 'no usable period: the missing start belongs to no field',
      rows: [address('', '')],
      want: [{ field: null, message: 'Your addresses must go back to Nov 2019 (7 years).' }],
    },
    {
      name: 'without a current address the months up to today are a gap with no address after it',
      rows: [{ ...address('2015-01', '2025-12'), current: false }],
      want: [
        {
          field: null,
          message: 'No address for Jan 2026 to Nov 2026. Add where you lived then or change these dates.',
        },
      ],
    },
  ];
  it.each(cases)('$name', ({ rows, want }) => {
    expect(coverageProblems(rows, ctx)).toEqual(want);
  });
});

describe('the address rules', () => {
  it('accepts a complete history', () => {
    expect(validateAddresses({ addresses: [address('2021-07', ''), address('2018-01', '2021-06')] }, ctx)).toEqual({});
  });

  it('names each field in error with the server messages', () => {
    const rows = [
      { ...address('2027-01', ''), street1: ' ', zip: '9370', state: 'US-XX' },
      { ...address('2018-01', ''), current: false, to: '2017-12', city: '' },
      { ...address('2015-01', '2018-01'), state: '', zip: '' },
    ];
    expect(validateAddresses({ addresses: rows }, ctx)).toEqual({
      'addresses.0.street1': 'Street is required.',
      'addresses.0.state': 'Choose a state from the list.',
      'addresses.0.zip': 'ZIP code must be 5 digits, or 5+4 (12345 or 12345-6789).',
      'addresses.0.from': 'From cannot be in the future.',
      'addresses.1.city': 'City is required.',
      'addresses.1.to': 'To cannot be before From.',
      'addresses.2.state': 'State is required.',
      'addresses.2.zip': 'ZIP code is required.',
      // Only the oldest address makes a usable period, and it ends before the start: the months since
      // are a gap with no address after it (the page lists it above the addresses), as on the server.
    });
  });

  it('wants the first address current, and the others ended', () => {
    const rows = [{ ...address('2020-01', '2026-10'), current: false }, address('2015-01', '')];
    const errors = validateAddresses({ addresses: rows }, ctx);
    expect(errors['addresses.0.current']).toBe('Tick "I live here now" on the address where you live now.');
    expect(errors['addresses.1.to']).toBe('To is required.');
  });

  it('abroad, the state and postal code are left to the address check', () => {
    const row = { ...address('2015-01', ''), country: 'CA', state: '', zip: '' };
    expect(validateAddresses({ addresses: [row] }, ctx)).toEqual({});
  });

  it('saves trimmed values, the kept ids and no end on the current address', () => {
    const rows = [
      { ...address('2020-01', ''), recordId: 'a1b2c3d4e5f60718', to: '2020-05', street1: ' 1 Main St ' },
      address('2015-01', '2020-01'),
    ];
    expect(toAddresses({ addresses: rows })).toEqual([
      {
        id: 'a1b2c3d4e5f60718',
        country: 'US',
        street1: '1 Main St',
        street2: '',
        city: 'Fresno',
        state: 'US-CA',
        zip: '93701',
        from: '2020-01',
        to: '',
        current: true,
      },
      {
        country: 'US',
        street1: '2015-01 Main St',
        street2: '',
        city: 'Fresno',
        state: 'US-CA',
        zip: '93701',
        from: '2015-01',
        to: '2020-01',
        current: false,
      },
    ]);
  });
});
