// /setup: the wizard, composed from the features it needs.
import '@/features/setup/lib/messages';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { LoginForm } from '@/features/auth/components/login-form';
import { LegalStepper } from '@/features/legal/components/legal-stepper';
import { SsnMismatchPanel } from '@/features/legal/components/ssn-mismatch-panel';
import { PersonalForm } from '@/features/personal/components/personal-form';
import { SetupWizard } from '@/features/setup/components/setup-wizard';
import { errorMessageOf } from '@/lib/api-client';
import { t } from '@/lib/i18n';

export function SetupRoute() {
  const navigate = useNavigate();
  return (
    <SetupWizard
      renderLogin={({ onSuccess, onFailed, username }) => (
        // The form says why in full; the step list only marks the step.
        <LoginForm
          username={username}
          usernameReadOnly
          onSuccess={onSuccess}
          onFailed={() => onFailed(t('setup.login.failed'))}
        />
      )}
      renderLegal={({ onSuccess, onFailed }) => (
        <LegalStepper onComplete={onSuccess} onFailed={(e) => onFailed(errorMessageOf(e))} />
      )}
      renderPersonal={({ onSuccess, onFailed, returnToLegal }) => (
        <>
          <SsnMismatchPanel onCleared={returnToLegal} />
          <PersonalForm submitLabel={t('setup.personal.submit')} onSaved={onSuccess} onFailed={onFailed} />
        </>
      )}
      onFinished={() => navigate(paths.profile.getHref(), { replace: true })}
    />
  );
}
