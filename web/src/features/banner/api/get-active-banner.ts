import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '@/lib/api-client';
import { onUserEvent } from '@/lib/user-events';
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

/**
 * Reads the banner again when an operator posts or clears one (the stream's `banner` event), and on
 * each `ready`, since changes may have been missed while the stream was away: shown or hidden
 * within seconds, without a reload.
 */
export function useLiveBanner() {
  const client = useQueryClient();
  useEffect(
    () =>
      onUserEvent((event) => {
        if (event.event === 'banner' || event.event === 'ready')
          void client.invalidateQueries({ queryKey: activeBannerQueryOptions().queryKey });
      }),
    [client],
  );
}
