// "Save and continue": the next page of the checklist that is not complete, or back to the review when
// the page was opened from one of its "Change" links (lib/subject.ts pathAfterSave).
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { pathAfterSave } from '@/lib/subject';
import type { SaveIntent } from '../components/save-actions';

export function useAfterSave(pageId: string) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const { search } = useLocation();
  return useCallback(
    async (intent: SaveIntent) => {
      if (intent !== 'continue') return;
      await navigate(await pathAfterSave(client, pageId, search));
    },
    [client, navigate, pageId, search],
  );
}
