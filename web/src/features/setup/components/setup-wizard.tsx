// The setup wizard (spec section 2): Welcome, Create Password, Login,
// Review Legal Notices, Personal Information. The app layer hands it the
// login form, the legal steps and the personal form, which belong to other
// features. Each step has a status (complete, editable, error + errorText)
// and reports next, success and failed.
import '@/features/setup/lib/messages';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { TrustPanel, type Employer } from '@/components/trust-panel/trust-panel';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Stepper, type Step } from '@/components/ui/stepper';
import { errorMessageOf } from '@/lib/api-client';
import { moveSubjectStatus } from '@/lib/auth';
import { notify } from '@/lib/notifications';
import { usePageTitle } from '@/lib/page-title';
import { useCompanySettings, useCurrentUser } from '@/lib/current-user';
import { useSession } from '@/lib/session';
import {
  firstOpenStep,
  isRevisitable,
  stepDone,
  stepsFor,
  stepToShow,
  type SetupProgress,
  type SetupStepId,
} from '../lib/setup-steps';
import { CreatePasswordStep } from './create-password-step';
import { PreparationChecklist } from './preparation-checklist';
import { WelcomeBrands } from './welcome-brands';
import styles from './setup-wizard.module.css';
import { t, type MessageKey } from '@/lib/i18n';

/** What each step asks of the applicant, as the welcome text lists it: only the steps they will see. */
// Keys, not messages: a message made at import would be English before the catalogue loads (lib/i18n.ts).
const welcomeWords: Record<Exclude<SetupStepId, 'welcome'>, MessageKey> = {
  password: 'setup.welcome.password',
  login: 'setup.welcome.login',
  legal: 'setup.welcome.legal',
  personal: 'setup.welcome.personal',
};

function withStep(params: URLSearchParams, step: SetupStepId): URLSearchParams {
  const next = new URLSearchParams(params);
  next.set('step', step);
  return next;
}

/** "a, b and c" */
function listOf(items: string[]): string {
  return items.length < 2
    ? (items[0] ?? '')
    : t('setup.welcome.list', { items: items.slice(0, -1).join(', '), last: items[items.length - 1] });
}

export type StepEvents = { onSuccess: () => void; onFailed: (message: string) => void };

type SetupWizardProps = {
  renderLogin: (events: StepEvents & { username: string }) => ReactNode;
  renderLegal: (events: StepEvents) => ReactNode;
  /** returnToLegal goes back to the first legal step (after the signatures were cleared). */
  renderPersonal: (events: StepEvents & { returnToLegal: () => void }) => ReactNode;
  /** Called once the server has set the status to setup-complete. */
  onFinished: () => void;
};

export function SetupWizard({ renderLogin, renderLegal, renderPersonal, onFinished }: SetupWizardProps) {
  const current = useCurrentUser();
  const user = current?.subject;
  const settings = useCompanySettings();
  // The employer, once the invitation or the login named the company.
  const employer: Employer | null = current?.company.name
    ? { name: current.company.name, logoUrl: settings?.companyLogoUrlAddress ?? null }
    : null;
  const loggedIn = useSession((s) => s.loggedIn);
  const minLength = settings?.preferences.company_subject_password_length ?? 15;
  const [welcomed, setWelcomed] = useState(false);
  const [legalSigned, setLegalSigned] = useState(false);
  const [errorText, setErrorText] = useState<Partial<Record<SetupStepId, string>>>({});
  // Completing setup on the server: idle, under way, or refused with the server's reason.
  const [finish, setFinish] = useState<{ state: 'idle' | 'busy' } | { state: 'failed'; message: string }>({
    state: 'idle',
  });
  const headingRef = useRef<HTMLHeadingElement>(null);
  const fullProfile = Boolean(user?.fullProfile);
  const progress: SetupProgress = {
    welcomed,
    hasPassword: Boolean(user?.hasPassword),
    loggedIn,
    legalSigned,
    personalSaved: Boolean(user?.personalInformation),
  };
  const active = firstOpenStep(fullProfile, progress);
  const steps = stepsFor(fullProfile);
  // Each step is a history entry (?step=), so the browser's Back and Forward
  // move between steps instead of leaving the app.
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('step');
  const shown = stepToShow(fullProfile, active, requested);
  const previousActive = useRef(active);

  useEffect(() => {
    const goTo = (step: SetupStepId, replace: boolean) =>
      setSearchParams((current) => withStep(current, step), { replace });
    const from = previousActive.current;
    previousActive.current = active;
    if (active !== from && active !== null) {
      // A step was finished: on to the next. Back may return to a step worth
      // seeing again; a finished password or login step is replaced instead.
      // Navigate even when the URL already names the step: a replace issued
      // just before (a reload on a later step while progress was loading) may
      // still land after this render and would leave the finished step shown.
      goTo(active, requested === active || !(from && isRevisitable(from)));
      return;
    }
    // A URL naming no step, or one that may not be shown (any more): show the allowed one in its place.
    if (shown !== null && requested !== shown) goTo(shown, true);
  }, [active, requested, shown, setSearchParams]);

  useEffect(() => {
    headingRef.current?.focus();
  }, [shown]);

  useEffect(() => {
    // A refused completion is retried once a step that was open is done again.
    if (active !== null && finish.state === 'failed') setFinish({ state: 'idle' });
  }, [active, finish]);

  useEffect(() => {
    if (active !== null || finish.state !== 'idle') return;
    setFinish({ state: 'busy' });
    moveSubjectStatus(1)
      .then(() => onFinished())
      .catch((error) => {
        // 409 names what is still missing.
        setFinish({ state: 'failed', message: errorMessageOf(error) });
        notify(errorMessageOf(error), 'error');
      });
  }, [active, finish, onFinished]);

  const onWelcomeNext = () => {
    setWelcomed(true);
    // Back on Welcome after it was done: Next returns to where the applicant was.
    if (active !== 'welcome' && active !== null) setSearchParams((current) => withStep(current, active));
  };

  const events = (id: SetupStepId, onSuccess: () => void = () => undefined): StepEvents => ({
    onSuccess: () => {
      setErrorText((e) => ({ ...e, [id]: undefined }));
      onSuccess();
    },
    onFailed: (message) => setErrorText((e) => ({ ...e, [id]: message })),
  });

  const body = (id: SetupStepId) => {
    switch (id) {
      case 'welcome':
        return (
          <div className={styles.welcome}>
            <div className={styles.form}>
              <WelcomeBrands employer={employer} />
              <p>
                {user?.firstName
                  ? t('setup.welcome.greetingNamed', { firstName: user.firstName })
                  : t('setup.welcome.greeting')}{' '}
                {t('setup.welcome.body', {
                  steps: listOf(steps.flatMap((s) => (s.id === 'welcome' ? [] : [t(welcomeWords[s.id])]))),
                })}
              </p>
              <PreparationChecklist />
              <Button onClick={onWelcomeNext}>{t('setup.welcome.next')}</Button>
            </div>
            <TrustPanel employer={employer} headingLevel={3} />
          </div>
        );
      case 'password':
        return (
          <div className={styles.narrow}>
            <CreatePasswordStep minLength={minLength} {...events('password')} />
          </div>
        );
      case 'login':
        return (
          <div className={styles.narrow}>{renderLogin({ ...events('login'), username: user?.username ?? '' })}</div>
        );
      case 'legal':
        return renderLegal(events('legal', () => setLegalSigned(true)));
      case 'personal':
        return renderPersonal({
          ...events('personal'),
          returnToLegal: () => {
            setLegalSigned(false);
            // The save that failed was refused for the signatures just cleared.
            setErrorText((e) => ({ ...e, personal: undefined }));
          },
        });
    }
  };

  // Each step titles the page (WCAG 2.4.2): the browser's tab and history say where the applicant is.
  const shownIndex = steps.findIndex((s) => s.id === shown);
  usePageTitle(
    shownIndex === -1
      ? null
      : t('setup.pageTitle', { step: steps[shownIndex].title, n: shownIndex + 1, total: steps.length }),
  );

  const stepperSteps: Step[] = steps.map((s) => {
    const error = errorText[s.id];
    const status = error ? 'error' : stepDone(s.id, progress) ? 'complete' : s.id === shown ? 'current' : 'pending';
    return { id: s.id, title: s.title, status, error };
  });

  return (
    <div className={styles.wizard}>
      <h1 className={styles.title}>{t('setup.title')}</h1>
      {/* While setup completes no step is shown: the last one stays the one named. */}
      <Stepper steps={stepperSteps} label={t('setup.steps')} currentId={shown ?? steps[steps.length - 1].id} />
      <Card className={styles.panel} aria-labelledby="setup-step-heading">
        <h2 id="setup-step-heading" ref={headingRef} tabIndex={-1} className={styles.heading}>
          {shown ? steps.find((s) => s.id === shown)?.title : t('setup.allDone')}
        </h2>
        {shown ? (
          <>
            {body(shown)}
            {active && shown !== active && shown !== 'welcome' ? (
              <div className={styles.continue}>
                <Button onClick={() => setSearchParams((current) => withStep(current, active))}>
                  {t('setup.continueTo', { step: steps.find((s) => s.id === active)?.title ?? '' })}
                </Button>
              </div>
            ) : null}
          </>
        ) : finish.state === 'failed' ? (
          <div role="alert" className={styles.form}>
            <p>{finish.message}</p>
            <Button onClick={() => setFinish({ state: 'idle' })}>{t('common.tryAgain')}</Button>
          </div>
        ) : (
          <p role="status">{t('setup.finishing')}</p>
        )}
      </Card>
    </div>
  );
}
