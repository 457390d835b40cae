// The login form's schema (spec section 5: both fields required).
import { z } from 'zod/mini';
import { t } from '@/lib/i18n';

export const loginInputSchema = z.object({
  username: z.string().check(z.trim(), z.minLength(1, { error: () => t('auth.login.usernameRequired') })),
  password: z.string().check(z.minLength(1, { error: () => t('auth.login.passwordRequired') })),
});

export type LoginFormValues = z.infer<typeof loginInputSchema>;
