import { describe, expect, it } from 'vitest';
import { coverageProblems, emptyAddress, toAddresses, validateAddresses, type AddressRow } from '../lib/address-rules';
import { coverageStartOf, monthName } from '@/lib/months';

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
    expect(monthName('2019-11')).toBe('November 2019');
    expect(monthName('2020-01')).toBe('January 2020');
    expect(coverageStartOf(today, 7)).toBe('2019-11');
    expect(coverageStartOf(new Date(2026, 0, 5), 3)).toBe('2023-01');
  });
});

describe('the coverage of the address history', () => {
  const gap = (from: string, to: string, message: string) => ({ from, to, message });
  const cases: {
    name: string;
    rows: AddressRow[];
    overlaps?: { field: string; message: string }[];
    gaps?: { from: string; to: string; message: string }[];
  }[] = [
    { name: 'one current address since before the start covers everything', rows: [address('2015-04', '')] },
    {
      name: 'periods may share their boundary month',
      rows: [address('2021-06', ''), address('2018-01', '2021-06')],
    },
    {
      name: 'periods that follow month after month leave no gap',
      rows: [address('2021-07', ''), address('2018-01', '2021-06')],
    },
    {
      name: "a gap is the list's, said as the address still to add, with its months",
      rows: [address('2021-09', ''), address('2018-01', '2021-06')],
      gaps: [gap('2021-07', '2021-08', 'Add the address where you lived from July 2021 to August 2021.')],
    },
    {
      name: 'a gap of one month names that month',
      rows: [address('2021-08', ''), address('2018-01', '2021-06')],
      gaps: [gap('2021-07', '2021-07', 'Add the address where you lived in July 2021.')],
    },
    {
      name: 'an overlap of more than the boundary month goes on the later address',
      rows: [address('2021-05', '', { street1: '9 Elm St' }), address('2018-01', '2021-06', { street1: '1 Oak Ave' })],
      overlaps: [{ field: 'addresses.0.from', message: 'This period overlaps your address at 1 Oak Ave.' }],
    },
    {
      name: 'a one-month stay inside another period overlaps it, as on the server',
      rows: [
        address('2021-06', '', { street1: '9 Elm St' }),
        address('2018-01', '2021-06', { street1: '1 Oak Ave' }),
        address('2019-03', '2019-03', { street1: '5 Pine Rd' }),
      ],
      overlaps: [{ field: 'addresses.2.from', message: 'This period overlaps your address at 1 Oak Ave.' }],
    },
    {
      name: 'a history that starts late is a gap from the first month asked for',
      rows: [address('2022-01', ''), address('2020-03', '2022-01')],
      gaps: [gap('2019-11', '2020-02', 'Add the address where you lived from November 2019 to February 2020.')],
    },
    {
      name: 'no usable period: every month is a gap',
      rows: [address('', '')],
      gaps: [gap('2019-11', '2026-11', 'Add the address where you lived from November 2019 to November 2026.')],
    },
    {
      name: 'without a current address the months up to today are a gap',
      rows: [{ ...address('2015-01', '2025-12'), current: false }],
      gaps: [gap('2026-01', '2026-11', 'Add the address where you lived from January 2026 to November 2026.')],
    },
  ];
  it.each(cases)('$name', ({ rows, overlaps = [], gaps = [] }) => {
    expect(coverageProblems(rows, ctx)).toEqual({ overlaps, gaps });
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

  it('as a draft ("Save for later"), checks each address but not the coverage nor the current address', () => {
    const rows = [
      { ...address('2022-01', '2022-05'), current: false },
      { ...address('2020-03', ''), current: false },
    ];
    expect(validateAddresses({ addresses: rows }, { ...ctx, draft: true })).toEqual({
      'addresses.1.to': 'To is required.',
    });
    expect(validateAddresses({ addresses: [address('2022-01', '')] }, { ...ctx, draft: true })).toEqual({});
    expect(validateAddresses({ addresses: [address('2022-01', '')] }, ctx)).toEqual({
      'addresses.gaps.0': 'Add the address where you lived from November 2019 to December 2021.',
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
