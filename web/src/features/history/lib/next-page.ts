// "Save and continue": the next page of the checklist that is not complete (lib/subject.ts pathAfterSave).
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { pathAfterSave } from '@/lib/subject';
import type { SaveIntent } from '../components/save-actions';

export function useAfterSave(pageId: string) {
  const client = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    async (intent: SaveIntent) => {
      if (intent !== 'continue') return;
      await navigate(await pathAfterSave(client, pageId));
    },
    [client, navigate, pageId],
  );
}
