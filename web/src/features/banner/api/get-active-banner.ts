import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Banner } from '@/types/api';

type ActiveBannerResponse = {
  payload: { banner: Banner | null };
};

export async function getActiveBanner(): Promise<Banner | null> {
  const answer = await api.get<ActiveBannerResponse>('api/v2/banner/active');
  return answer?.payload?.banner ?? null;
}

export const activeBannerQueryOptions = () =>
  queryOptions({
    queryKey: ['banner', 'active'],
    queryFn: getActiveBanner,
    staleTime: 60_000,
  });

export function useActiveBanner({ enabled }: { enabled: boolean }) {
  return useQuery({ ...activeBannerQueryOptions(), enabled });
}
