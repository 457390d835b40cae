// The applicant's chosen collection site: GET and PUT /api/v2/user/collection-site (contract of
// issue 12). Changeable is the server's word on whether /collection-site-update may change it.
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { CollectionSite } from './search-collection-sites';

export type ChosenSite = {
  site: CollectionSite | null;
  chosenAt: string | null;
  collectedAt: string | null;
  changeable: boolean;
};

const CHOSEN_SITE = 'api/v2/user/collection-site';

export const chosenSiteQuery = () =>
  queryOptions({ queryKey: ['collection-site'], queryFn: () => api.get<ChosenSite>(CHOSEN_SITE) });

export const useChosenSite = () => useQuery(chosenSiteQuery());

/** Saves the choice; the answer is the new state, kept so home shows it at once. */
export async function chooseSite(client: QueryClient, siteId: number): Promise<ChosenSite> {
  const chosen = await api.put<ChosenSite>(CHOSEN_SITE, { siteId });
  client.setQueryData(chosenSiteQuery().queryKey, chosen);
  return chosen;
}
