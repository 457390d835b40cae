// GET /api/v2/user/order/{id} as the screening reads it: each service's state, reason, action and
// estimate (docs/api.md). The hub reads the same answer under the same key, so one request serves both.
import { queryOptions, useQueries, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type ServiceState = 'pending' | 'in-progress' | 'waiting-applicant' | 'waiting-third-party' | 'complete';

export type ScreeningService = {
  id: number;
  code: string;
  name: string;
  alias: string;
  status: 'pending' | 'complete';
  /** The applicant must act: the service waits on them, or their details for it are incomplete. */
  hasError: boolean;
  /** Older servers leave the screening's fields out: the service is then pending, without a reason. */
  state?: ServiceState;
  reason?: { code: string; text: string; action: { label: string; path: string } | null } | null;
  estimate?: { earliest: string; latest: string } | null;
  updatedAt?: string | null;
};

export type OrderServices = { id: number; statusId: number; services: ScreeningService[] };

export const orderServicesQuery = (id: number) =>
  queryOptions({
    queryKey: ['order', id],
    queryFn: () => api.get<OrderServices>(`api/v2/user/order/${id}`),
    // A failure is left as it is (spec: ignored silently) until the next change or reload. Asking again
    // when a list of the services mounts would make the query pending, which unmounts that list while
    // /'s summary waits, and mounting it again asks again: without end.
    retry: false,
    retryOnMount: false,
  });

export const useOrderServices = (id: number) => useQuery(orderServicesQuery(id));

/**
 * The services of the orders whose detail has arrived. A function of the module, not of the render, so
 * that useQueries keeps its answer between renders rather than combining again on each.
 */
function combineServices(results: UseQueryResult<OrderServices>[]) {
  return {
    services: results.flatMap((result) => result.data?.services ?? []),
    loaded: results.every((result) => !result.isPending),
  };
}

/** The services of every order, those whose detail has arrived. */
export function useAllOrderServices(ids: number[]): { services: ScreeningService[]; loaded: boolean } {
  return useQueries({ queries: ids.map((id) => orderServicesQuery(id)), combine: combineServices });
}
