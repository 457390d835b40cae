// Typed but unsaved input survives a reload: a draft in session storage,
// which logout clears with the rest of the session. The SSN is left out:
// it never rests in the browser's storage.
import { PERSONAL_DRAFT_STORAGE_KEY as DRAFT_KEY } from '@/lib/session';
import type { PersonalValues } from './personal-rules';

export function loadDraft(): Partial<PersonalValues> | null {
  try {
    const raw = sessionStorage.getItem(DRAFT_KEY);
    return raw ? (JSON.parse(raw) as Partial<PersonalValues>) : null;
  } catch {
    return null;
  }
}

export function saveDraft(values: PersonalValues) {
  const { ssn: _ssn, confirmSSN: _confirm, ...rest } = values;
  sessionStorage.setItem(DRAFT_KEY, JSON.stringify(rest));
}

export function clearDraft() {
  sessionStorage.removeItem(DRAFT_KEY);
}
