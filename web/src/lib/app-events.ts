// Events that cross features without one importing the other: one feature
// raises them (the user menu, a form), whoever cares listens on window.
import { ApiError } from './api-client';

export const MAIN_MENU_CHAT_SELECTED = 'main-menu-chat-selected';

/** The control focus returns to when the chat closes (the user menu's button). */
export type ChatSelectedDetail = { trigger: HTMLElement | null };

export function raiseChatSelected(trigger: HTMLElement | null = null) {
  window.dispatchEvent(new CustomEvent<ChatSelectedDetail>(MAIN_MENU_CHAT_SELECTED, { detail: { trigger } }));
}

/** Spec section 5: a rejected SSN check. The legal feature offers to clear the signatures. */
export const SSN_MISMATCH_EVENT = 'ssn-mismatch';

export type SsnMismatchDetail = { message: string };

export function raiseSsnMismatch(message: string) {
  window.dispatchEvent(new CustomEvent<SsnMismatchDetail>(SSN_MISMATCH_EVENT, { detail: { message } }));
}

/** Raises ssn-mismatch when a server answer carries the SSN check's rejection; true when it did. */
export function raiseSsnMismatchFrom(error: unknown): boolean {
  const field = error instanceof ApiError ? error.errorFields.find((f) => f.code === SSN_MISMATCH_EVENT) : undefined;
  if (field) raiseSsnMismatch(field.message);
  return Boolean(field);
}

/** The subject's status moved on the server (a status POST answered): whoever keeps the user refetches it. */
export const SUBJECT_STATUS_MOVED = 'subject-status-moved';

export function raiseSubjectStatusMoved() {
  window.dispatchEvent(new CustomEvent(SUBJECT_STATUS_MOVED));
}
