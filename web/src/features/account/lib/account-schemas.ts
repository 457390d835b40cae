// The account forms' schemas. The server checks everything again; these give
// the messages before a round trip. Each message is made when a check fails (an `error` function), not
// at import, when the chosen language's catalogue may not be loaded yet (lib/i18n.ts).
import '@/features/account/lib/messages';
import { z } from 'zod/mini';
import { t } from '@/lib/i18n';
import { passwordMessages, passwordProblem, type CommonPasswords, type PasswordOwner } from '@/lib/password-policy';
import { EMAIL_ADDRESS } from '@/lib/email';

export const notificationSchema = z
  .object({
    type: z.enum(['email', 'text', 'both'], { error: () => t('account.notify.typeRequired') }),
    email: z.string().check(z.trim()),
    text: z.string().check(z.trim()),
  })
  .check(
    z.superRefine((value, ctx) => {
      if (value.type !== 'text') {
        if (!value.email)
          ctx.issues.push({ code: 'custom', path: ['email'], message: t('account.notify.emailRequired'), input: '' });
        else if (!EMAIL_ADDRESS.test(value.email))
          ctx.issues.push({ code: 'custom', path: ['email'], message: t('account.notify.emailInvalid'), input: '' });
      }
      if (value.type !== 'email') {
        const digits = value.text.replace(/\D/g, '');
        if (!value.text)
          ctx.issues.push({ code: 'custom', path: ['text'], message: t('account.notify.phoneRequired'), input: '' });
        else if (digits.length < 10 || digits.length > 15)
          ctx.issues.push({ code: 'custom', path: ['text'], message: t('account.notify.phoneInvalid'), input: '' });
      }
    }),
  );

export type NotificationValues = z.infer<typeof notificationSchema>;

/**
 * The change-password form: the current password, and a new one under the policy
 * of the create-password step (lib/password-policy.ts). `common` is read when the
 * form is checked, so the list of leaked passwords counts once it has loaded.
 */
export function passwordChangeSchema(minLength: number, owner: PasswordOwner, common: () => CommonPasswords) {
  return z.object({ currentPassword: z.string(), password: z.string(), confirmPassword: z.string() }).check(
    z.superRefine((value, ctx) => {
      if (!value.currentPassword)
        ctx.issues.push({
          code: 'custom',
          path: ['currentPassword'],
          message: t('account.password.currentRequired'),
          input: '',
        });
      const problem = passwordProblem(value.password, minLength, owner, common());
      if (problem) ctx.issues.push({ code: 'custom', path: ['password'], message: problem, input: '' });
      else if (value.password === value.currentPassword)
        ctx.issues.push({ code: 'custom', path: ['password'], message: t('account.password.same'), input: '' });
      if (!value.confirmPassword)
        ctx.issues.push({
          code: 'custom',
          path: ['confirmPassword'],
          message: passwordMessages.confirmRequired,
          input: '',
        });
      else if (value.confirmPassword !== value.password)
        ctx.issues.push({ code: 'custom', path: ['confirmPassword'], message: passwordMessages.mismatch, input: '' });
    }),
  );
}

export type PasswordChangeValues = { currentPassword: string; password: string; confirmPassword: string };

export const emailChangeSchema = z.object({
  email: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, { error: () => t('account.email.required') }),
      z.regex(EMAIL_ADDRESS, { error: () => t('account.email.invalid') }),
    ),
  currentPassword: z.string().check(z.minLength(1, { error: () => t('account.password.currentRequired') })),
});

export type EmailChangeValues = z.infer<typeof emailChangeSchema>;
