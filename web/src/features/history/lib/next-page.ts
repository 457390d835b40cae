// "Save and continue": the next page of the checklist that is not complete,
// read from the subject as it is after the save (the save invalidated it).
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { nextPagePath, subjectQueries, type ChecklistPage } from '@/lib/subject';
import type { SaveIntent } from '../components/save-actions';

export function useAfterSave(pageId: string) {
  const client = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    async (intent: SaveIntent) => {
      if (intent !== 'continue') return;
      let pages: ChecklistPage[] = client.getQueryData(subjectQueries.subject().queryKey)?.pages ?? [];
      try {
        pages = (await client.fetchQuery(subjectQueries.subject())).pages;
      } catch {
        // The save is done; without a fresh checklist the last one known decides.
      }
      await navigate(nextPagePath(pages, pageId));
    },
    [client, navigate, pageId],
  );
}
