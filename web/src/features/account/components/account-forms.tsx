// /account for a logged-in applicant: how they want to hear from us, their
// password and their e-mail address (which is also their username). Each is a
// form of its own: one save never touches another's fields.
import '@/features/account/lib/messages';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { PasswordField } from '@/components/ui/password-field';
import { RadioGroup } from '@/components/ui/radio-group';
import { TextField } from '@/components/ui/text-field';
import { currentUserQuery } from '@/lib/current-user';
import { applyServerErrors, invalidFields, useAppForm, type ServerErrors } from '@/lib/form';
import { useKeepFocusOnPress } from '@/lib/keep-focus';
import { t } from '@/lib/i18n';
import { notify } from '@/lib/notifications';
import { loadCommonPasswords, type CommonPasswords } from '@/lib/password-policy';
import type { UserPayload } from '@/types/api';
import { changeEmail, changePassword, saveNotificationMethod, type NotificationMethod } from '../api/account-api';
import {
  emailChangeSchema,
  notificationSchema,
  passwordChangeSchema,
  type EmailChangeValues,
  type NotificationValues,
  type PasswordChangeValues,
} from '../lib/account-schemas';
import styles from './account.module.css';

const noRefusal: ServerErrors = { fields: [], messages: [] };

type Problems = ServerErrors & { attempt: number; focus: boolean };

/**
 * The problems of the last failed submit, for the form's error summary. The
 * client's own finds take focus to the summary; the server's focus their first
 * field (applyServerErrors), and the summary only when no field shows them, so
 * focus leaving that field does not check it again and wipe the server's message.
 */
function useProblems() {
  const [problems, setProblems] = useState<Problems>({ ...noRefusal, attempt: 0, focus: false });
  return {
    problems,
    clear: () => setProblems((p) => ({ ...noRefusal, attempt: p.attempt, focus: false })),
    showInvalid: (fields: ServerErrors['fields']) =>
      setProblems((p) => ({ fields, messages: [], attempt: p.attempt + 1, focus: true })),
    showRefused: (found: ServerErrors) =>
      setProblems((p) => ({ ...found, attempt: p.attempt + 1, focus: found.fields.length === 0 })),
  };
}

function notificationDefaults(user: UserPayload): NotificationValues {
  const saved = user.subject.personalInformation?.primaryNotificationMethod as Partial<NotificationMethod> | undefined;
  return {
    type: saved?.type ?? 'email',
    email: saved?.email ?? user.subject.email ?? '',
    text: saved?.text ?? '',
  };
}

export function NotificationForm({ user }: { user: UserPayload }) {
  const formRef = useRef<HTMLFormElement>(null);
  useKeepFocusOnPress(formRef);
  const { problems, clear, showInvalid, showRefused } = useProblems();
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useAppForm(notificationSchema, { defaultValues: notificationDefaults(user) });
  const type = watch('type');

  const submit = handleSubmit(
    async (values) => {
      clear();
      try {
        await saveNotificationMethod({
          type: values.type,
          email: values.type === 'text' ? '' : values.email,
          text: values.type === 'email' ? '' : values.text.replace(/\D/g, ''),
        });
        notify(t('errors.notification.saved'), 'success');
      } catch (error) {
        const found = applyServerErrors(error, setError, formRef.current);
        showRefused({ ...found, messages: found.messages.map((m) => `${t('errors.notification.saveFailed')}: ${m}`) });
        if (found.fields.length > 0) notify(t('errors.notification.saveFailed'), 'error');
      }
    },
    (fieldErrors) => showInvalid(invalidFields(fieldErrors, formRef.current)),
  );

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-labelledby="account-notify-title" className={styles.form}>
      <h2 id="account-notify-title" className={styles.heading}>
        {t('account.notify.title')}
      </h2>
      <p className={styles.hint}>{t('account.notify.hint')}</p>
      <ErrorSummary
        key={problems.attempt}
        messages={problems.messages}
        fields={problems.fields}
        focusOnMount={problems.focus}
      />
      <RadioGroup
        legend={t('account.notify.type')}
        required
        options={[
          { value: 'email', label: t('account.notify.byEmail') },
          { value: 'text', label: t('account.notify.byText') },
          { value: 'both', label: t('account.notify.byBoth') },
        ]}
        error={errors.type?.message}
        {...register('type')}
      />
      {type !== 'text' ? (
        <TextField
          label={t('account.notify.email')}
          type="email"
          autoComplete="email"
          required
          error={errors.email?.message}
          {...register('email')}
        />
      ) : null}
      {type !== 'email' ? (
        <TextField
          label={t('account.notify.phone')}
          type="tel"
          autoComplete="tel"
          required
          hint={t('account.notify.phoneHint')}
          error={errors.text?.message}
          {...register('text')}
        />
      ) : null}
      <div>
        <Button type="submit" loading={isSubmitting}>
          {isSubmitting ? t('account.saving') : t('account.notify.save')}
        </Button>
      </div>
    </form>
  );
}

export function PasswordForm({ user, minLength }: { user: UserPayload; minLength: number }) {
  const formRef = useRef<HTMLFormElement>(null);
  useKeepFocusOnPress(formRef);
  const common = useRef<CommonPasswords>(null);
  const { problems, clear, showInvalid, showRefused } = useProblems();
  const [done, setDone] = useState(false);
  const owner = useMemo(() => ({ username: user.subject.username, email: user.subject.email }), [user]);
  const schema = useMemo(() => passwordChangeSchema(minLength, owner, () => common.current), [minLength, owner]);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useAppForm<PasswordChangeValues>(schema, {
    defaultValues: { currentPassword: '', password: '', confirmPassword: '' },
  });

  /** The list of leaked passwords; without it the server still checks. */
  const loadList = async () => {
    if (common.current) return;
    try {
      common.current = await loadCommonPasswords();
    } catch {
      // The server checks the list anyway.
    }
  };

  const save = handleSubmit(
    async ({ currentPassword, password }) => {
      clear();
      try {
        await changePassword(currentPassword, password);
        reset();
        setDone(true);
        notify(t('account.password.changed'), 'success');
      } catch (error) {
        showRefused(applyServerErrors(error, setError, formRef.current));
      }
    },
    (fieldErrors) => showInvalid(invalidFields(fieldErrors, formRef.current)),
  );

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setDone(false);
    await loadList();
    await save();
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-labelledby="account-password-title" className={styles.form}>
      <h2 id="account-password-title" className={styles.heading}>
        {t('account.password.title')}
      </h2>
      <p className={styles.hint}>{t('account.password.hint', { min: minLength })}</p>
      <ErrorSummary
        key={problems.attempt}
        messages={problems.messages}
        fields={problems.fields}
        focusOnMount={problems.focus}
      />
      {done ? (
        <Alert tone="success">
          <p>{t('account.password.changedText')}</p>
        </Alert>
      ) : null}
      <PasswordField
        label={t('account.password.current')}
        autoComplete="current-password"
        required
        error={errors.currentPassword?.message}
        {...register('currentPassword')}
      />
      <PasswordField
        label={t('account.password.new')}
        autoComplete="new-password"
        required
        onFocus={() => void loadList()}
        error={errors.password?.message}
        {...register('password')}
      />
      <PasswordField
        label={t('account.password.confirm')}
        autoComplete="new-password"
        required
        error={errors.confirmPassword?.message}
        {...register('confirmPassword')}
      />
      <div>
        <Button type="submit" loading={isSubmitting}>
          {isSubmitting ? t('account.saving') : t('account.password.save')}
        </Button>
      </div>
    </form>
  );
}

export function EmailForm({ user }: { user: UserPayload }) {
  const formRef = useRef<HTMLFormElement>(null);
  useKeepFocusOnPress(formRef);
  const queryClient = useQueryClient();
  const { problems, clear, showInvalid, showRefused } = useProblems();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useAppForm<EmailChangeValues>(emailChangeSchema, { defaultValues: { email: '', currentPassword: '' } });
  const pending = user.subject.pendingEmail;

  const submit = handleSubmit(
    async ({ email, currentPassword }) => {
      clear();
      try {
        const payload = await changeEmail(currentPassword, email);
        queryClient.setQueryData(currentUserQuery().queryKey, (old: UserPayload | undefined) =>
          old ? { ...old, subject: { ...old.subject, pendingEmail: payload.subject.pendingEmail ?? email } } : old,
        );
        reset();
      } catch (error) {
        showRefused(applyServerErrors(error, setError, formRef.current));
      }
    },
    (fieldErrors) => showInvalid(invalidFields(fieldErrors, formRef.current)),
  );

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-labelledby="account-email-title" className={styles.form}>
      <h2 id="account-email-title" className={styles.heading}>
        {t('account.email.title')}
      </h2>
      <p className={styles.hint}>{t('account.email.current', { email: user.subject.email })}</p>
      {pending ? (
        <Alert tone="info" title={t('account.email.pendingTitle')}>
          <p>{t('account.email.pendingText', { email: pending })}</p>
        </Alert>
      ) : null}
      <ErrorSummary
        key={problems.attempt}
        messages={problems.messages}
        fields={problems.fields}
        focusOnMount={problems.focus}
      />
      <TextField
        label={t('account.email.new')}
        type="email"
        autoComplete="email"
        required
        error={errors.email?.message}
        {...register('email')}
      />
      <PasswordField
        label={t('account.password.current')}
        autoComplete="current-password"
        required
        hint={t('account.email.passwordHint')}
        error={errors.currentPassword?.message}
        {...register('currentPassword')}
      />
      <div>
        <Button type="submit" loading={isSubmitting}>
          {isSubmitting ? t('account.saving') : t('account.email.save')}
        </Button>
      </div>
    </form>
  );
}
