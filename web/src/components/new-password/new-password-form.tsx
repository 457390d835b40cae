// Choosing a new password: the Create Password step of setup and the reset
// page (/reset?token=) share it. It shows the rules as a checklist that
// updates while the applicant types, a hint, a show toggle and a confirmation,
// and checks the server's policy (NIST SP 800-63B) before submit.
import { useId, useRef, useState, type ReactNode } from 'react';
import { useForm, type FieldErrors, type Resolver } from 'react-hook-form';
import { ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { TextField } from '@/components/ui/text-field';
import { ApiError } from '@/lib/api-client';
import { useFailedSave } from '@/lib/failed-save';
import { t } from '@/lib/i18n';
import {
  identityRuleLabel,
  loadCommonPasswords,
  passwordMessages,
  passwordProblem,
  passwordRules,
  ruleRefusedBy,
  type CommonPasswords,
  type PasswordOwner,
  type PasswordRule,
} from '@/lib/password-policy';
import styles from './new-password-form.module.css';

export type NewPasswordValues = { password: string; confirmPassword: string };

/** A password the server refused, with its message and the rule it breaks (null: none the checklist shows). */
type Refused = { password: string; message: string; rule: PasswordRule['id'] | null };

/**
 * The checklist for `password`: the rules as the app checks them, but never
 * all met for a password the server refused. The rule it breaks shows
 * unmet (the identity rule added when the page did not know the owner); a
 * refusal that names no rule leaves every rule unconfirmed.
 */
export function checklist(rules: PasswordRule[], password: string, refused: Refused | null): PasswordRule[] {
  if (!refused || refused.password !== password) return rules;
  const { rule } = refused;
  if (!rule) return rules.map((r) => (r.met ? { ...r, met: null } : r));
  const shown = rules.some((r) => r.id === rule)
    ? rules
    : [...rules.slice(0, 2), { id: rule, label: identityRuleLabel(), met: false }, ...rules.slice(2)];
  return shown.map((r) => (r.id === rule ? { ...r, met: false } : r));
}

type NewPasswordFormProps = {
  /** The form's accessible name. */
  name: string;
  passwordLabel: string;
  confirmLabel: string;
  submitLabel: string;
  busyLabel: string;
  minLength: number;
  /** Whose password it is, when known: it must not contain their username or e-mail. */
  owner?: PasswordOwner;
  hint: ReactNode;
  /** Saves the password; throws the server's refusal, which the form shows. */
  onSubmit: (password: string) => Promise<void>;
  onFailed?: (error: unknown) => void;
};

export function NewPasswordForm({
  name,
  passwordLabel,
  confirmLabel,
  submitLabel,
  busyLabel,
  minLength,
  owner = {},
  hint,
  onSubmit,
  onFailed,
}: NewPasswordFormProps) {
  const [show, setShow] = useState(false);
  const [common, setCommon] = useState<CommonPasswords>(null);
  // The resolver runs outside React's render: it reads the list from here.
  const commonRef = useRef<CommonPasswords>(null);
  // The resolver reads it too: the refusal stays on the field until the password changes.
  const [refused, setRefused] = useState<Refused | null>(null);
  const refusedRef = useRef<Refused | null>(null);
  const hintId = useId();
  const rulesId = useId();

  const resolver: Resolver<NewPasswordValues> = async (values) => {
    const errors: FieldErrors<NewPasswordValues> = {};
    const serverSaid = refusedRef.current?.password === values.password ? refusedRef.current.message : undefined;
    const problem = serverSaid ?? passwordProblem(values.password, minLength, owner, commonRef.current);
    if (problem) errors.password = { type: 'policy', message: problem };
    if (!values.confirmPassword)
      errors.confirmPassword = { type: 'required', message: passwordMessages.confirmRequired };
    else if (values.confirmPassword !== values.password)
      errors.confirmPassword = { type: 'match', message: passwordMessages.mismatch };
    return Object.keys(errors).length ? { values: {}, errors } : { values, errors: {} };
  };

  const form = useForm<NewPasswordValues>({
    resolver,
    mode: 'onTouched',
    defaultValues: { password: '', confirmPassword: '' },
  });
  const {
    register,
    handleSubmit,
    trigger,
    watch,
    getFieldState,
    formState: { errors, isValid, isSubmitting },
  } = form;
  const failed = useFailedSave(form);

  /** The list of leaked passwords, fetched once per form; null when it cannot be had (the server checks it anyway). */
  const loadList = async (): Promise<CommonPasswords> => {
    if (commonRef.current) return commonRef.current;
    try {
      commonRef.current = await loadCommonPasswords();
    } catch {
      return null;
    }
    setCommon(commonRef.current);
    if (getFieldState('password').isTouched) void trigger('password');
    return commonRef.current;
  };

  const save = handleSubmit(async ({ password }) => {
    try {
      await onSubmit(password);
    } catch (error) {
      // A message for the password goes on its field (focused); others, like an expired link, above the form.
      failed.onServerError(error);
      const message =
        error instanceof ApiError ? error.errorFields.find((f) => f.field === 'password')?.message : undefined;
      refusedRef.current = message ? { password, message, rule: ruleRefusedBy(message) } : null;
      setRefused(refusedRef.current);
      onFailed?.(error);
    }
  });

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    failed.clear();
    await loadList();
    await save();
  };

  const clearRefusal = () => failed.clear();
  const password = watch('password');
  const rules = checklist(passwordRules(password, minLength, owner, common), password, refused);

  return (
    <form ref={failed.formRef} onSubmit={submit} noValidate aria-label={name} className={styles.form}>
      <ErrorSummary key={failed.attempt} messages={failed.summary.messages} focusOnMount />
      <p id={hintId} className={styles.hint}>
        {hint}
      </p>
      <TextField
        label={passwordLabel}
        type={show ? 'text' : 'password'}
        autoComplete="new-password"
        autoCapitalize="none"
        spellCheck={false}
        error={errors.password?.message}
        aria-describedby={`${hintId} ${rulesId}`}
        onFocus={() => void loadList()}
        {...register('password', { onChange: clearRefusal })}
      />
      <ul id={rulesId} className={styles.rules} aria-label={t('ui.newPassword.rules')}>
        {rules.map((rule) => {
          // Broken only once something is typed; before that, and while the list loads, still to do.
          const state = rule.met ? 'yes' : password && rule.met === false ? 'no' : 'pending';
          return (
            <li key={rule.id} className={styles.rule} data-met={state}>
              <span className={styles.mark} aria-hidden="true">
                {state === 'yes' ? '✓' : state === 'no' ? '✗' : '○'}
              </span>
              <span>
                {rule.label}
                <span className="visually-hidden">
                  {' '}
                  {state === 'yes'
                    ? t('ui.newPassword.done')
                    : rule.met === null && password
                      ? t('ui.newPassword.checking')
                      : t('ui.newPassword.notYet')}
                </span>
              </span>
            </li>
          );
        })}
      </ul>
      <TextField
        label={confirmLabel}
        type={show ? 'text' : 'password'}
        autoComplete="new-password"
        autoCapitalize="none"
        spellCheck={false}
        error={errors.confirmPassword?.message}
        {...register('confirmPassword', { onChange: clearRefusal })}
      />
      <Checkbox label={t('ui.newPassword.show')} checked={show} onChange={(e) => setShow(e.target.checked)} />
      <Button type="submit" fullWidth disabled={!isValid} loading={isSubmitting}>
        {isSubmitting ? busyLabel : submitLabel}
      </Button>
    </form>
  );
}
