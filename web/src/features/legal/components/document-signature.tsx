// The signature of one document. The first document that needs one asks for
// it (drawn or typed); each later one offers that adopted signature, which
// goes on the document only with the press of its own "Sign this document",
// or takes a different signature for that document alone.
import '@/features/legal/lib/messages';
import { useState } from 'react';
import { AdoptedSignature } from '@/components/signature-pad/adopted-signature';
import { SignaturePad } from '@/components/signature-pad/signature-pad';
import { Button } from '@/components/ui/button';
import { t } from '@/lib/i18n';
import { adoptedSignature, adoptSignature } from '../lib/adopted-signature';
import type { StepValues } from './step-fields';
import styles from './document-signature.module.css';

export type DocumentSignatureChoice = ReturnType<typeof useDocumentSignature>;

/**
 * A document form's choice between the adopted signature and one of its own.
 * `reset` empties the form's signature when the choice changes: a signature
 * drawn for this document does not stay behind the adopted one, nor the
 * other way round.
 */
export function useDocumentSignature(reset: () => void) {
  // Read once: a form offers what was adopted when it opened.
  const [adopted] = useState(adoptedSignature);
  const [own, setOwn] = useState(false);
  // Once the applicant switched, what the switch shows takes the focus (the button pressed is gone).
  const [switched, setSwitched] = useState(false);
  const offered = own ? '' : adopted;
  return {
    adopted,
    /** The adopted signature this document offers; '' when it asks for a signature. */
    offered,
    own,
    switched,
    useOwn(next: boolean) {
      setOwn(next);
      setSwitched(true);
      reset();
    },
    /** What the rules check: a document that offers the adopted signature has one to sign with. */
    checked(values: StepValues): StepValues {
      return offered ? { ...values, signature: offered } : values;
    },
    /** The press of "Sign this document": only now does the adopted signature go on this document. */
    press(put: (signature: string) => void) {
      if (offered) put(offered);
    },
    /** The document is signed: the first signature given is the one the next documents offer. */
    signed(signature: unknown) {
      if (!adopted && typeof signature === 'string' && signature) adoptSignature(signature);
    },
  };
}

type Props = {
  choice: DocumentSignatureChoice;
  error?: string;
  onChange: (dataUrl: string) => void;
};

export function DocumentSignature({ choice, error, onChange }: Props) {
  if (choice.offered)
    return (
      <AdoptedSignature
        label={t('legal.stepper.yourSignature')}
        hint={t('legal.signature.adoptedHint')}
        image={choice.offered}
        alt={t('legal.signature.adoptedImage')}
        other={t('legal.signature.useOwn')}
        focusOnMount={choice.switched}
        onOther={() => choice.useOwn(true)}
      />
    );
  return (
    <div className={styles.own}>
      <SignaturePad
        label={t('legal.stepper.yourSignature')}
        hint={choice.adopted ? t('legal.signature.ownHint') : t('legal.signature.firstHint')}
        error={error}
        focusOnMount={choice.switched}
        onChange={onChange}
      />
      {choice.adopted ? (
        <Button variant="link" className={styles.back} onClick={() => choice.useOwn(false)}>
          {t('legal.signature.useAdopted')}
        </Button>
      ) : null}
    </div>
  );
}
