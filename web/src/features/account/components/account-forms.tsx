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
import { DraftStatus } from '@/components/draft-status/draft-status';
import { currentUserQuery } from '@/lib/current-user';
import { useAppForm } from '@/lib/form';
import { useFailedSave } from '@/lib/failed-save';
import { useKeepFocusOnPress } from '@/lib/keep-focus';
import { t } from '@/lib/i18n';
import { notify } from '@/lib/notifications';
import { loadCommonPasswords, type CommonPasswords } from '@/lib/password-policy';
import { useServerDraft } from '@/lib/server-draft';
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

function notificationDefaults(user: UserPayload): NotificationValues {
  const saved = user.subject.personalInformation?.primaryNotificationMethod as Partial<NotificationMethod> | undefined;
  return {
    type: saved?.type ?? 'email',
    email: saved?.email ?? user.subject.email ?? '',
    text: saved?.text ?? '',
  };
}

export function NotificationForm({ user }: { user: UserPayload }) {
  const form = useAppForm(notificationSchema, { defaultValues: notificationDefaults(user) });
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors, isSubmitting },
  } = form;
  const failed = useFailedSave(form);
  useKeepFocusOnPress(failed.formRef);
  const type = watch('type');
  // The account page's two drafted forms share the 'account' draft, each under its own prefix.
  const draft = useServerDraft('account', form, { prefix: 'notification.' });

  const submit = handleSubmit(async (values) => {
    failed.clear();
    draft.pause();
    try {
      await saveNotificationMethod({
        type: values.type,
        email: values.type === 'text' ? '' : values.email,
        text: values.type === 'email' ? '' : values.text.replace(/\D/g, ''),
      });
      // The save removed this form's fields from the draft on the server.
      draft.submitted(values);
      notify(t('errors.notification.saved'), 'success');
    } catch (error) {
      draft.resume();
      // The summary says it failed and links the refused fields; a snackbar would say it twice.
      failed.onServerError(error, { failure: t('errors.notification.saveFailed') });
    }
  }, failed.onInvalid);

  return (
    <form
      ref={failed.formRef}
      onSubmit={submit}
      noValidate
      aria-labelledby="account-notify-title"
      className={styles.form}
    >
      <h2 id="account-notify-title" className={styles.heading}>
        {t('account.notify.title')}
      </h2>
      <p className={styles.hint}>{t('account.notify.hint')}</p>
      <ErrorSummary key={failed.attempt} {...failed.summary} />
      <DraftStatus draft={draft} />
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
  const common = useRef<CommonPasswords>(null);
  const [done, setDone] = useState(false);
  const owner = useMemo(() => ({ username: user.subject.username, email: user.subject.email }), [user]);
  const schema = useMemo(() => passwordChangeSchema(minLength, owner, () => common.current), [minLength, owner]);
  const form = useAppForm<PasswordChangeValues>(schema, {
    defaultValues: { currentPassword: '', password: '', confirmPassword: '' },
  });
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = form;
  const failed = useFailedSave(form);
  useKeepFocusOnPress(failed.formRef);

  /** The list of leaked passwords; without it the server still checks. */
  const loadList = async () => {
    if (common.current) return;
    try {
      common.current = await loadCommonPasswords();
    } catch {
      // The server checks the list anyway.
    }
  };

  const save = handleSubmit(async ({ currentPassword, password }) => {
    failed.clear();
    try {
      await changePassword(currentPassword, password);
      reset();
      setDone(true);
      notify(t('account.password.changed'), 'success');
    } catch (error) {
      failed.onServerError(error);
    }
  }, failed.onInvalid);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setDone(false);
    await loadList();
    await save();
  };

  return (
    <form
      ref={failed.formRef}
      onSubmit={submit}
      noValidate
      aria-labelledby="account-password-title"
      className={styles.form}
    >
      <h2 id="account-password-title" className={styles.heading}>
        {t('account.password.title')}
      </h2>
      <p className={styles.hint}>{t('account.password.hint', { min: minLength })}</p>
      <ErrorSummary key={failed.attempt} {...failed.summary} />
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
  const queryClient = useQueryClient();
  const form = useAppForm<EmailChangeValues>(emailChangeSchema, { defaultValues: { email: '', currentPassword: '' } });
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = form;
  const failed = useFailedSave(form);
  useKeepFocusOnPress(failed.formRef);
  const pending = user.subject.pendingEmail;
  // The new address only: a password is never part of a draft.
  const draft = useServerDraft('account', form, { prefix: 'email.', exclude: ['currentPassword'] });

  const submit = handleSubmit(async ({ email, currentPassword }) => {
    failed.clear();
    draft.pause();
    try {
      const payload = await changeEmail(currentPassword, email);
      queryClient.setQueryData(currentUserQuery().queryKey, (old: UserPayload | undefined) =>
        old ? { ...old, subject: { ...old.subject, pendingEmail: payload.subject.pendingEmail ?? email } } : old,
      );
      reset();
      // The request removed this form's field from the draft on the server.
      draft.submitted();
    } catch (error) {
      draft.resume();
      failed.onServerError(error);
    }
  }, failed.onInvalid);

  return (
    <form
      ref={failed.formRef}
      onSubmit={submit}
      noValidate
      aria-labelledby="account-email-title"
      className={styles.form}
    >
      <h2 id="account-email-title" className={styles.heading}>
        {t('account.email.title')}
      </h2>
      <p className={styles.hint}>{t('account.email.current', { email: user.subject.email })}</p>
      {pending ? (
        <Alert tone="info" title={t('account.email.pendingTitle')}>
          <p>{t('account.email.pendingText', { email: pending })}</p>
        </Alert>
      ) : null}
      <ErrorSummary key={failed.attempt} {...failed.summary} />
      {/* One question before leaving is enough: the notification form's asks for the page. */}
      <DraftStatus draft={draft} leaveGuard={false} />
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
