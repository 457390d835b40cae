// What the applicant will need for the whole journey and how long it takes,
// as the server computes it from the company's package
// (GET /api/v2/user/preparation), and their "I'll find this later" marks
// (PUT /api/v2/user/preparation/{id}). The server sends ids and facts; the
// texts are the catalogue's (welcome.json).
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type PreparationItemId =
  | 'ssnAndBirthDate'
  | 'otherNames'
  | 'addresses'
  | 'driversLicence'
  | 'schools'
  | 'employers'
  | 'licences'
  | 'references'
  | 'documents'
  | 'pdfForms'
  | 'photoIdAndSelfie'
  | 'collectionSite'
  | 'paymentCard';

export type PreparationItem = {
  id: PreparationItemId;
  later: boolean;
  years?: number;
  count?: number;
  names?: string[];
  phones?: boolean;
  ssnRequired?: boolean;
  amount?: string;
  currency?: string;
};

export type MinutesRange = { low: number; high: number };

export type Preparation = {
  items: PreparationItem[];
  estimate: { minutes: MinutesRange; parts: { id: string; minutes: MinutesRange }[] };
};

export const getPreparation = () => api.get<Preparation>('api/v2/user/preparation');

export const preparationQueryOptions = () =>
  queryOptions({ queryKey: ['user', 'preparation'], queryFn: getPreparation, staleTime: 60_000 });

export function usePreparation({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...preparationQueryOptions(), enabled });
}

export const markPreparationItem = ({ id, later }: { id: PreparationItemId; later: boolean }) =>
  api.put<Preparation>(`api/v2/user/preparation/${encodeURIComponent(id)}`, { later });

/**
 * Marks an item "I'll find this later" (or clears the mark). The checkbox shows the new state at
 * once; a refused save puts it back.
 */
export function useMarkPreparationItem() {
  const client = useQueryClient();
  const key = preparationQueryOptions().queryKey;
  return useMutation({
    mutationFn: markPreparationItem,
    onMutate: async ({ id, later }) => {
      await client.cancelQueries({ queryKey: key });
      const before = client.getQueryData(key);
      client.setQueryData(key, (p) =>
        p ? { ...p, items: p.items.map((it) => (it.id === id ? { ...it, later } : it)) } : p,
      );
      return { before };
    },
    onError: (_error, _vars, context) => {
      if (context?.before) client.setQueryData(key, context.before);
    },
    onSuccess: (answer) => client.setQueryData(key, answer),
  });
}
