import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Location, Place } from '../lib/legal-steps';

type SubjectData = { payload: { data: { location: Location } } };

export const getSubjectLocation = () => api.get<SubjectData>('api/v2/user/data').then((r) => r.payload.data.location);

export const subjectLocationQueryOptions = () =>
  queryOptions({ queryKey: ['subject-location'], queryFn: getSubjectLocation });

export const useSubjectLocation = () => useQuery(subjectLocationQueryOptions());

/** A place as the applicant gives it: a state and county (0: none or another), or outside the US. */
export type PlaceAnswer = Pick<Place, 'nonUs' | 'state' | 'county'>;

/**
 * Sets where the applicant lives and, when the employer did not say, where
 * they will work (the server keeps the employer's word over the applicant's).
 */
export function useSetLocation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (location: { residency: PlaceAnswer; employment?: PlaceAnswer }) =>
      api.post<SubjectData>('api/v2/user/data', { location }),
    onSuccess: (data) => {
      client.setQueryData(['subject-location'], data.payload.data.location);
      return client.invalidateQueries({ queryKey: ['legal-documents'] });
    },
  });
}
