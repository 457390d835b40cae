// The signature the applicant gave on the first document that asked for one,
// offered on each later document for a press of its own ("Sign this
// document"). The setup's legal steps and the DOT release dialogs share it.
// It lives in memory for this visit only: a signature is not something to
// leave in the browser's storage, and a logout forgets it.
import { session } from '@/lib/session';

let adopted = '';

/** The adopted signature (a PNG data URL), '' when none was given in this visit. */
export function adoptedSignature(): string {
  return adopted;
}

export function adoptSignature(dataUrl: string) {
  adopted = dataUrl;
}

export function forgetAdoptedSignature() {
  adopted = '';
}

session.onReset(forgetAdoptedSignature);
