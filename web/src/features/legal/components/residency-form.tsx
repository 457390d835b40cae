// Which documents apply depends on where the applicant lives (spec section 5).
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { useStates } from '@/lib/lookups';
import styles from './legal-stepper.module.css';

type ResidencyFormProps = {
  busy: boolean;
  error?: string;
  onSubmit: (residency: { nonUs: boolean; state: string }) => void;
};

export function ResidencyForm({ busy, error, onSubmit }: ResidencyFormProps) {
  const states = useStates();
  const [state, setState] = useState('');
  const [nonUs, setNonUs] = useState(false);
  const ready = nonUs || state !== '';
  return (
    <form
      className={styles.form}
      aria-labelledby="residency-heading"
      onSubmit={(e) => {
        e.preventDefault();
        if (ready) onSubmit({ nonUs, state: nonUs ? '' : state });
      }}
    >
      <h2 id="residency-heading" className={styles.heading}>
        Where do you live?
      </h2>
      <p>Some laws give you extra notices depending on where you live, so we ask before showing the documents.</p>
      <label htmlFor="residency-state" className={styles.label}>
        State
      </label>
      <select id="residency-state" className={styles.select} value={state} disabled={nonUs} onChange={(e) => setState(e.target.value)}>
        <option value="">Choose your state</option>
        {(states.data ?? []).map((s) => (
          <option key={s.code} value={s.code}>
            {s.name}
          </option>
        ))}
      </select>
      <div className={styles.checkbox}>
        <input id="residency-non-us" type="checkbox" checked={nonUs} onChange={(e) => setNonUs(e.target.checked)} />
        <label htmlFor="residency-non-us">I live outside the United States</label>
      </div>
      {error ? (
        <p role="alert" className={styles.alert}>
          {error}
        </p>
      ) : null}
      <Button type="submit" disabled={!ready || busy}>
        Continue
      </Button>
    </form>
  );
}
