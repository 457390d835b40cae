// GET /api/v2/user/profile: where the screening stands and its orders, read by the hub
// (features/profile) and the final page (features/home) through one query and cache entry.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';
import type { ProfileStatusShown } from './profile-status';

export type ProfileOrder = { id: number; statusId: number; statusText?: string };

export type ScreeningProfile = {
  id: number;
  number: string;
  statusId: number;
  /** What the applicant is shown (spec section 4); older servers leave it out and the app derives it. */
  status?: ProfileStatusShown;
  orders: ProfileOrder[];
};

export const profileQuery = () =>
  queryOptions({ queryKey: ['profile'], queryFn: () => api.get<ScreeningProfile>('api/v2/user/profile') });

export const useScreeningProfile = () => useQuery(profileQuery());
