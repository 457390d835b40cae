// The other names and the address history (docs/api.md, "Aliases",
// "Addresses", "Address validation"). Each page reads its list fresh on every
// visit; after a save the answer goes into the cache and the subject (the
// checklist) is read again.
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Address, Alias } from '@/lib/subject';

export type AliasesAnswer = { aliases: Alias[]; saved: boolean };
export type AddressesAnswer = {
  addresses: Address[];
  saved: boolean;
  requiredYears: number;
  coverageStart: string;
  gaps: { from: string; to: string }[];
  releaseFormRequired: boolean;
};

export const historyQueries = {
  aliases: () =>
    queryOptions({
      queryKey: ['history', 'aliases'],
      queryFn: () => api.get<{ payload: AliasesAnswer }>('api/v2/user/subject/alias').then((r) => r.payload),
    }),
  addresses: () =>
    queryOptions({
      queryKey: ['history', 'addresses'],
      queryFn: () => api.get<{ payload: AddressesAnswer }>('api/v2/user/subject/address').then((r) => r.payload),
    }),
};

export const saveAliases = (aliases: Alias[]) =>
  api.put<{ payload: AliasesAnswer }>('api/v2/user/subject/alias', { aliases }).then((r) => r.payload);

/** A draft ("Save for later") need not cover the years yet; the checklist page stays incomplete until it does. */
export const saveAddresses = (addresses: Address[], draft: boolean) =>
  api.put<{ payload: AddressesAnswer }>('api/v2/user/subject/address', { addresses, draft }).then((r) => r.payload);

export type AddressCheck = {
  valid: boolean;
  /** field: the query parameter's name (street, city, state, zip; locality, administrative_area, postal_code...). */
  errorFields: { field: string; message: string }[];
  releaseFormRequired: boolean;
  military: boolean;
};

/** Checks one address as typed: the US check at home, the international one abroad. */
export function checkAddress(address: Pick<Address, 'country' | 'street1' | 'city' | 'state' | 'zip'>) {
  const answer =
    address.country === 'US'
      ? api.get<{ payload: AddressCheck }>('api/v2/validation/address', {
          query: { street: address.street1, city: address.city, state: address.state, zip: address.zip },
        })
      : api.get<{ payload: AddressCheck }>('api/v2/validation/internationaladdress', {
          query: {
            country: address.country,
            street: address.street1,
            locality: address.city,
            administrative_area: address.state,
            postal_code: address.zip,
          },
        });
  return answer.then((r) => r.payload);
}

/** The form field each query parameter of the address checks stands for. */
export const checkedField: Record<string, 'country' | 'street1' | 'city' | 'state' | 'zip'> = {
  country: 'country',
  street: 'street1',
  city: 'city',
  locality: 'city',
  state: 'state',
  administrative_area: 'state',
  zip: 'zip',
  postal_code: 'zip',
};
