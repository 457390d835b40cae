import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { activeBannerQueryOptions } from './get-active-banner';

export function dismissBanner(id: number) {
  return api.post<void>(`api/v2/banner/dismiss/${id}`);
}

export function useDismissBanner() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: dismissBanner,
    onSuccess: () => {
      queryClient.setQueryData(activeBannerQueryOptions().queryKey, null);
    },
  });
}
