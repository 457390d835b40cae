// Create Password (setup step 2): the shared new-password form (the rules as
// a checklist, a hint, show/hide and a confirmation) with the company's
// minimum length; PATCH /api/v2/user with the invitation's setup credential.
import '@/features/setup/lib/messages';
import { NewPasswordForm } from '@/components/new-password/new-password-form';
import { api } from '@/lib/api-client';
import { storeUserPayload } from '@/lib/auth';
import { useCurrentUser } from '@/lib/current-user';
import type { UserPayload } from '@/types/api';
import { t } from '@/lib/i18n';

type CreatePasswordStepProps = {
  minLength: number;
  onSuccess: () => void;
  onFailed: (message: string) => void;
};

export function CreatePasswordStep({ minLength, onSuccess, onFailed }: CreatePasswordStepProps) {
  const user = useCurrentUser()?.subject;
  return (
    <NewPasswordForm
      name={t('setup.password.name')}
      passwordLabel={t('setup.password.label')}
      confirmLabel={t('setup.password.confirm')}
      submitLabel={t('setup.password.submit')}
      busyLabel={t('setup.password.busy')}
      minLength={minLength}
      owner={{ username: user?.username, email: user?.email }}
      hint={<>{t('setup.password.hint', { min: minLength })}</>}
      onSubmit={async (password) => {
        storeUserPayload(await api.patch<UserPayload>('api/v2/user', { password }));
        onSuccess();
      }}
      // The form shows the server's reason, once; the step list only marks the step.
      onFailed={() => onFailed(t('setup.password.failed'))}
    />
  );
}
