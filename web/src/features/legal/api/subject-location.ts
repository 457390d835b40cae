import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Location, Place } from '../lib/legal-steps';

type SubjectData = { payload: { data: { location: Location } } };

export const getSubjectLocation = () => api.get<SubjectData>('api/v2/user/data').then((r) => r.payload.data.location);

export const subjectLocationQueryOptions = () =>
  queryOptions({ queryKey: ['subject-location'], queryFn: getSubjectLocation });

export const useSubjectLocation = () => useQuery(subjectLocationQueryOptions());

/** Sets where the applicant lives; the employer set where they will work. */
export function useSetResidency() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (residency: Pick<Place, 'nonUs' | 'state'>) =>
      api.post<SubjectData>('api/v2/user/data', { location: { residency: { ...residency, county: 0 } } }),
    onSuccess: (data) => {
      client.setQueryData(['subject-location'], data.payload.data.location);
      return client.invalidateQueries({ queryKey: ['legal-documents'] });
    },
  });
}
