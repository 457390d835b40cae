// A signature given earlier, shown in the pad's place: the image, what pressing
// the form's button does with it, and a way to give another one instead.
import { useEffect, useId, useRef } from 'react';
import { Button } from '@/components/ui/button';
import styles from './signature-pad.module.css';

type AdoptedSignatureProps = {
  label: string;
  hint: string;
  /** The signature, a PNG data URL, and its text alternative. */
  image: string;
  alt: string;
  /** The button that gives another signature instead. */
  other: string;
  /** Shown at the applicant's request: the focus goes to it. */
  focusOnMount?: boolean;
  onOther: () => void;
};

export function AdoptedSignature({
  label,
  hint,
  image,
  alt,
  other,
  focusOnMount = false,
  onOther,
}: AdoptedSignatureProps) {
  const otherRef = useRef<HTMLButtonElement>(null);
  const hintId = useId();
  useEffect(() => {
    if (focusOnMount) otherRef.current?.focus();
  }, [focusOnMount]);
  return (
    <fieldset className={styles.field} aria-describedby={hintId}>
      <legend className={styles.legend}>{label}</legend>
      <p id={hintId} className={styles.hint}>
        {hint}
      </p>
      <img className={styles.adopted} src={image} alt={alt} />
      <Button ref={otherRef} variant="link" className={styles.other} onClick={onOther}>
        {other}
      </Button>
    </fieldset>
  );
}
