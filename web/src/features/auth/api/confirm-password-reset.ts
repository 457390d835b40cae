import { z } from 'zod/mini';
import { api } from '@/lib/api-client';
import type { MessageResponse } from '@/types/api';

export const PASSWORD_CHANGED_MESSAGE = 'Your password has been changed.';

export const newPasswordSchema = z
  .object({
    password: z.string().check(z.minLength(1, 'Password is required')),
    confirmPassword: z.string().check(z.minLength(1, 'Please confirm the password')),
  })
  .check(
    z.refine((values) => values.password === values.confirmPassword, {
      message: 'Passwords do not match',
      path: ['confirmPassword'],
    }),
  );

export type NewPasswordInput = z.infer<typeof newPasswordSchema>;

/** POST /api/user/password/reset/confirm with the token of the e-mailed link. */
export function confirmPasswordReset({ token, password }: { token: string; password: string }) {
  return api.post<MessageResponse>('api/user/password/reset/confirm', { token, password });
}
