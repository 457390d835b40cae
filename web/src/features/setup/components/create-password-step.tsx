// Create Password (setup step 2): the company's minimum length, a strength
// meter, show/hide and a confirmation; PATCH /api/v2/user with the
// invitation's setup credential.
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { api, ApiError, errorMessageOf } from '@/lib/api-client';
import { storeUserPayload } from '@/lib/auth';
import type { UserPayload } from '@/types/api';
import { passwordStrength, strengthWords } from '../lib/setup-steps';
import styles from './setup-wizard.module.css';

type CreatePasswordStepProps = {
  minLength: number;
  onSuccess: () => void;
  onFailed: (message: string) => void;
};

export function CreatePasswordStep({ minLength, onSuccess, onFailed }: CreatePasswordStepProps) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [show, setShow] = useState(false);
  const [touched, setTouched] = useState({ password: false, confirm: false });
  const [serverError, setServerError] = useState('');
  const [busy, setBusy] = useState(false);
  const meterId = useId();
  const length = [...password].length;
  const passwordError = !password
    ? 'Password is required'
    : length < minLength
      ? `Password must be at least ${minLength} characters long.`
      : undefined;
  const confirmError = confirm !== password ? 'The passwords do not match.' : undefined;
  const strength = passwordStrength(password);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setTouched({ password: true, confirm: true });
    if (passwordError || confirmError) return;
    setBusy(true);
    setServerError('');
    try {
      storeUserPayload(await api.patch<UserPayload>('api/v2/user', { password }));
      onSuccess();
    } catch (error) {
      const message = error instanceof ApiError && error.errorFields[0] ? error.errorFields[0].message : errorMessageOf(error);
      setServerError(message);
      onFailed(message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Create Password" className={styles.form}>
      <p>Choose a password of at least {minLength} characters. A few unrelated words make a strong one you can remember.</p>
      <TextField
        label="Password"
        type={show ? 'text' : 'password'}
        autoComplete="new-password"
        value={password}
        error={serverError || (touched.password ? passwordError : undefined)}
        aria-describedby={meterId}
        onChange={(e) => setPassword(e.target.value)}
        onBlur={() => setTouched((t) => ({ ...t, password: true }))}
      />
      <div id={meterId} className={styles.meter}>
        <meter min={0} max={4} low={2} high={3} optimum={4} value={strength} aria-label="Password strength" />
        <span>Strength: {password ? strengthWords[strength] : 'none yet'}</span>
      </div>
      <TextField
        label="Confirm password"
        type={show ? 'text' : 'password'}
        autoComplete="new-password"
        value={confirm}
        error={touched.confirm ? confirmError : undefined}
        onChange={(e) => setConfirm(e.target.value)}
        onBlur={() => setTouched((t) => ({ ...t, confirm: true }))}
      />
      <div className={styles.check}>
        <input id="show-password" type="checkbox" checked={show} onChange={(e) => setShow(e.target.checked)} />
        <label htmlFor="show-password">Show password</label>
      </div>
      <Button type="submit" disabled={busy || Boolean(passwordError || confirmError)}>
        {busy ? 'Saving…' : 'Create password'}
      </Button>
    </form>
  );
}
