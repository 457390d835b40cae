// The hub's server state: the profile (GET /api/v2/user/profile) and each
// order's detail (GET /api/v2/user/order/{id}). docs/api.md is the contract.
import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { profileQuery, type ProfileOrder } from '@/lib/profile';

export type { ProfileOrder, ScreeningProfile as HubProfile } from '@/lib/profile';

export type OrderDetail = {
  id: number;
  statusId: number;
  statusText: string;
  packageName: string;
  createdAt: string;
  // Its services are the screening's to show (features/screening reads the same answer).
};

export const profileQueries = {
  profile: profileQuery,
  order: (id: number) =>
    queryOptions({
      queryKey: ['order', id],
      queryFn: () => api.get<OrderDetail>(`api/v2/user/order/${id}`),
      // A missing detail is left out of the hub, not retried nor reported (the order still shows).
      retry: false,
    }),
};

export const useProfile = () => useQuery(profileQueries.profile());

/** The details of the orders, by order id; an order whose detail failed or is loading is absent. */
export function useOrderDetails(orders: ProfileOrder[] | undefined): Map<number, OrderDetail> {
  return useQueries({
    queries: (orders ?? []).map((order) => profileQueries.order(order.id)),
    combine: (results) => {
      const details = new Map<number, OrderDetail>();
      for (const result of results) if (result.data) details.set(result.data.id, result.data);
      return details;
    },
  });
}
