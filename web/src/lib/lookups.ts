// The lookups (spec section 7): countries, states, counties, genders and suffixes, each
// fetched under one query key, so every form that needs one shares the answer.
// They do not change while the app runs: fetched once, never stale.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';

export type LookupItem = { id: number; name: string; code: string };
export type Country = { countryId: number; countryName: string; countryCode: string };
/** A county with its FIPS code as id (6075 San Francisco); the server lists those with local notices. */
export type County = { id: number; name: string; stateId: number; stateCode: string };

/** The United States (spec section 9): the states lookup's default country. */
export const US_COUNTRY_ID = 1;

export const lookupQueries = {
  genders: () =>
    queryOptions({
      queryKey: ['lookup', 'genders'],
      queryFn: () => api.get<LookupItem[]>('api/v2/lookup/genders'),
      staleTime: Infinity,
    }),
  suffixes: () =>
    queryOptions({
      queryKey: ['lookup', 'suffixes'],
      queryFn: () => api.get<LookupItem[]>('api/v2/lookup/suffixes'),
      staleTime: Infinity,
    }),
  countries: () =>
    queryOptions({
      queryKey: ['lookup', 'countries'],
      queryFn: () => api.get<Country[]>('api/v2/lookup/countries'),
      staleTime: Infinity,
    }),
  states: (countryId = US_COUNTRY_ID) =>
    queryOptions({
      queryKey: ['lookup', 'states', countryId],
      queryFn: () => api.get<LookupItem[]>('api/v2/lookup/statesByCountryId', { query: { countryId } }),
      staleTime: Infinity,
    }),
  counties: () =>
    queryOptions({
      queryKey: ['lookup', 'counties'],
      queryFn: () => api.get<County[]>('api/v2/lookup/counties'),
      staleTime: Infinity,
    }),
};

export const useGenders = () => useQuery(lookupQueries.genders());
export const useSuffixes = () => useQuery(lookupQueries.suffixes());
export const useCountries = () => useQuery(lookupQueries.countries());
export const useStates = (countryId = US_COUNTRY_ID) => useQuery(lookupQueries.states(countryId));
export const useCounties = () => useQuery(lookupQueries.counties());
