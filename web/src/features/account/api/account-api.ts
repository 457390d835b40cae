// The account's writes: notification preferences (PUT /api/v2/user/subject/notification)
// and the password or e-mail change (PATCH /api/v2/user). docs/api.md is the contract.
import { api } from '@/lib/api-client';
import type { UserPayload } from '@/types/api';

export type NotificationType = 'email' | 'text' | 'both';
export type NotificationMethod = { type: NotificationType; email: string; text: string };

export const saveNotificationMethod = (method: NotificationMethod) =>
  api
    .put<{ payload: { primaryNotificationMethod: NotificationMethod } }>('api/v2/user/subject/notification', method)
    .then((r) => r.payload.primaryNotificationMethod);

export const changePassword = (currentPassword: string, password: string) =>
  api.patch<UserPayload>('api/v2/user', { currentPassword, password });

/** The address changes only once the link mailed to it is opened; the answer carries it as pendingEmail. */
export const changeEmail = (currentPassword: string, email: string) =>
  api.patch<UserPayload>('api/v2/user', { currentPassword, email });
