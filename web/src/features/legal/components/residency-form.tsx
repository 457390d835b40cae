// Which documents apply depends on where the applicant lives (spec section 5).
import '@/features/legal/lib/messages';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { useStates } from '@/lib/lookups';
import styles from './legal-stepper.module.css';
import { t } from '@/lib/i18n';

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
        {t('legal.residency.whereDoYouLive')}
      </h2>
      <p>{t('legal.residency.someLawsGiveYouExtra')}</p>
      <label htmlFor="residency-state" className={styles.label}>
        {t('legal.residency.state')}
      </label>
      <select
        id="residency-state"
        className={styles.select}
        value={state}
        disabled={nonUs}
        onChange={(e) => setState(e.target.value)}
      >
        <option value="">{t('legal.residency.chooseYourState')}</option>
        {(states.data ?? []).map((s) => (
          <option key={s.code} value={s.code}>
            {s.name}
          </option>
        ))}
      </select>
      <div className={styles.checkbox}>
        <input id="residency-non-us" type="checkbox" checked={nonUs} onChange={(e) => setNonUs(e.target.checked)} />
        <label htmlFor="residency-non-us">{t('legal.residency.iLiveOutsideTheUnited')}</label>
      </div>
      {error ? (
        <p role="alert" className={styles.alert}>
          {error}
        </p>
      ) : null}
      <Button type="submit" disabled={!ready || busy}>
        {t('legal.residency.continue')}
      </Button>
    </form>
  );
}
