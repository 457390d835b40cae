// Why a link to continue on another device did not sign in. The server's codes for the handoff grant's
// invalid_grant (internal/portal/handoff.go, docs/api.md) are the contract: each refusal gets its own
// page, saying what happened and what to do.
import { ApiError } from '@/lib/api-client';

export type HandoffRefusal = 'used' | 'expired' | 'invalid' | 'failed';

export const HANDOFF_USED = 'handoff.used';
export const HANDOFF_EXPIRED = 'handoff.expired';
export const HANDOFF_INVALID = 'handoff.invalid';

export function refusalOf(error: unknown): HandoffRefusal {
  if (!(error instanceof ApiError) || error.status !== 400) return 'failed';
  if (error.errorCode === HANDOFF_USED) return 'used';
  if (error.errorCode === HANDOFF_EXPIRED) return 'expired';
  return 'invalid';
}
