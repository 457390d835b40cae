import { api } from '@/lib/api-client';
import type { MessageResponse } from '@/types/api';

/**
 * POST /api/v2/reminders/stop with the token of a reminder's stop link. No login needed: the token
 * alone says whose reminders. The server answers the same for any token.
 */
export function stopReminders(token: string) {
  return api.post<MessageResponse>('api/v2/reminders/stop', { token });
}

/** POST /api/v2/reminders/resume: the same token turns the reminders back on. */
export function resumeReminders(token: string) {
  return api.post<MessageResponse>('api/v2/reminders/resume', { token });
}
