// Why a link to continue on another device did not sign in. The server's texts for the handoff grant's
// invalid_grant (internal/portal/handoff.go, docs/api.md) are the contract: each refusal gets its own
// page, saying what happened and what to do.
import { ApiError } from '@/lib/api-client';

export type HandoffRefusal = 'used' | 'expired' | 'invalid' | 'failed';

export const HANDOFF_USED = 'This link has already been used. Each link works only once.';
export const HANDOFF_EXPIRED = 'This link has expired. Each link works for 10 minutes.';
export const HANDOFF_INVALID = 'This link is not valid.';

export function refusalOf(error: unknown): HandoffRefusal {
  if (!(error instanceof ApiError) || error.status !== 400) return 'failed';
  if (error.errorMessage === HANDOFF_USED) return 'used';
  if (error.errorMessage === HANDOFF_EXPIRED) return 'expired';
  return 'invalid';
}
