// The screening's live changes after submission: the event stream's `screening` events (docs/api.md),
// whose data names what changed (`services`, `report`, `dispute`, `adverse-action`). A feature names
// the kinds it shows and the queries that read them; they are read again on such an event, and on
// each `ready`, since changes may have been missed while the stream was away.
import { useEffect } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { onUserEvent } from './user-events';

export type ScreeningChange = 'services' | 'report' | 'dispute' | 'adverse-action';

/** The kind a `screening` event's data names; null for data that is not such an event. */
export function screeningChangeOf(data: string): ScreeningChange | null {
  try {
    const kind = (JSON.parse(data) as { kind?: unknown }).kind;
    return kind === 'services' || kind === 'report' || kind === 'dispute' || kind === 'adverse-action' ? kind : null;
  } catch {
    return null;
  }
}

/** Reads `queryKeys` again when the stream says one of `kinds` changed. */
export function useLiveScreening(kinds: readonly ScreeningChange[], queryKeys: readonly QueryKey[]) {
  const client = useQueryClient();
  const kindsKey = kinds.join(',');
  const keysKey = JSON.stringify(queryKeys);
  useEffect(() => {
    const watched = kindsKey.split(',');
    const keys = JSON.parse(keysKey) as QueryKey[];
    return onUserEvent((event) => {
      const change = event.event === 'screening' ? screeningChangeOf(event.data) : null;
      if (event.event === 'ready' || (change && watched.includes(change)))
        for (const queryKey of keys) void client.invalidateQueries({ queryKey });
    });
  }, [client, kindsKey, keysKey]);
}
