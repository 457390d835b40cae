// The new dispute's form: its schema (the server checks everything again) and the words of its answers.
import '@/features/disputes/lib/messages';
import { z } from 'zod/mini';
import { t, type MessageKey } from '@/lib/i18n';
import {
  DISPUTE_REASONS,
  MAX_DISPUTE_TEXT,
  type DisputeOutcome,
  type DisputeReason,
  type DisputeState,
} from '../api/disputes';

/** The report as a whole, in the form's "which part" answer (serviceCode); the server's is ''. */
export const WHOLE_REPORT = 'report';

export const disputeSchema = z.object({
  reason: z.enum(DISPUTE_REASONS, { error: () => t('disputes.form.reasonRequired') }),
  serviceCode: z.string().check(z.minLength(1, { error: () => t('disputes.form.partRequired') })),
  explanation: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, { error: () => t('disputes.form.explanationRequired') }),
      z.maxLength(MAX_DISPUTE_TEXT, { error: () => t('disputes.form.explanationTooLong', { max: MAX_DISPUTE_TEXT }) }),
    ),
});

export type DisputeValues = z.input<typeof disputeSchema>;

const reasonKeys: Record<DisputeReason, [MessageKey, MessageKey]> = {
  'not-me': ['disputes.reason.not-me', 'disputes.reason.not-me.hint'],
  inaccurate: ['disputes.reason.inaccurate', 'disputes.reason.inaccurate.hint'],
  incomplete: ['disputes.reason.incomplete', 'disputes.reason.incomplete.hint'],
  outdated: ['disputes.reason.outdated', 'disputes.reason.outdated.hint'],
};

const outcomeKeys: Record<DisputeOutcome, MessageKey> = {
  corrected: 'disputes.outcome.corrected',
  verified: 'disputes.outcome.verified',
  deleted: 'disputes.outcome.deleted',
};

const stateKeys: Record<DisputeState, MessageKey> = {
  received: 'disputes.state.received',
  reinvestigating: 'disputes.state.reinvestigating',
  resolved: 'disputes.state.resolved',
};

export const reasonLabel = (reason: DisputeReason) => t(reasonKeys[reason][0]);
export const reasonHint = (reason: DisputeReason) => t(reasonKeys[reason][1]);
export const outcomeLabel = (outcome: DisputeOutcome) => t(outcomeKeys[outcome]);
export const stateLabel = (state: DisputeState) => t(stateKeys[state]);

/** What a dispute is about, in the applicant's words. */
export function partLabel(serviceCode: string, serviceName: string) {
  return serviceCode ? t('disputes.part.service', { name: serviceName || serviceCode }) : t('disputes.part.report');
}

/** "You have 12 characters remaining" under a textarea (GOV.UK character count). */
export function charactersLeft(text: string, max = MAX_DISPUTE_TEXT) {
  const left = max - [...text].length;
  if (left === 1) return t('disputes.form.characterLeft');
  if (left === -1) return t('disputes.form.characterOver');
  return left >= 0
    ? t('disputes.form.charactersLeft', { count: left })
    : t('disputes.form.charactersOver', { count: -left });
}
