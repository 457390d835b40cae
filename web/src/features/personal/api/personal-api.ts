import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { UserPayload } from '@/types/api';
import { toRequest, type PersonalValues } from '../lib/personal-rules';

export const savePersonalInfo = (values: PersonalValues) => api.put<UserPayload>('api/v2/user', toRequest(values));

export type LookupItem = { id: number; name: string; code: string };
export type Country = { countryId: number; countryName: string; countryCode: string };

const lookup = <T>(key: string, path: string, query?: Record<string, number>) =>
  queryOptions({ queryKey: ['lookup', key], queryFn: () => api.get<T>(path, { query }), staleTime: Infinity });

export const useGenders = () => useQuery(lookup<LookupItem[]>('genders', 'api/v2/lookup/genders'));
export const useSuffixes = () => useQuery(lookup<LookupItem[]>('suffixes', 'api/v2/lookup/suffixes'));
export const useCountries = () => useQuery(lookup<Country[]>('countries', 'api/v2/lookup/countries'));
export const useUSStates = () =>
  useQuery(lookup<LookupItem[]>('statesByCountryId-1', 'api/v2/lookup/statesByCountryId', { countryId: 1 }));
