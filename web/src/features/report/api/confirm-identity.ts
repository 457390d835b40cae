// POST /api/v2/user/profile/report/confirm: the date of birth and the last four SSN digits, checked
// against what the applicant gave; a right answer opens the reports to this session for 15 minutes.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import '@/features/report/lib/messages';
import { api } from '@/lib/api-client';
import { dateProblem } from '@/lib/date-parts';
import { t } from '@/lib/i18n';
import { reportAccessQuery, type ReportAccess } from './get-report-access';

/** The form's rules; `ssnRequired` false leaves the digits out (an applicant without an SSN). */
export const confirmIdentitySchema = (ssnRequired: boolean) =>
  z.object({ dob: z.string(), ssnLast4: z.string().check(z.trim()) }).check(
    z.superRefine((value, ctx) => {
      const label = t('report.confirm.dob');
      if (!value.dob || value.dob === '--')
        ctx.issues.push({ code: 'custom', path: ['dob'], message: t('report.confirm.dobRequired'), input: '' });
      else {
        const problem = dateProblem(value.dob, 'date', label);
        if (problem) ctx.issues.push({ code: 'custom', path: ['dob'], message: problem.message, input: '' });
      }
      if (!ssnRequired) return;
      if (!value.ssnLast4)
        ctx.issues.push({ code: 'custom', path: ['ssnLast4'], message: t('report.confirm.ssnRequired'), input: '' });
      else if (!/^\d{4}$/.test(value.ssnLast4))
        ctx.issues.push({ code: 'custom', path: ['ssnLast4'], message: t('report.confirm.ssnFormat'), input: '' });
    }),
  );

export type ConfirmIdentityValues = z.infer<ReturnType<typeof confirmIdentitySchema>>;

export function confirmIdentity(values: ConfirmIdentityValues, ssnRequired: boolean) {
  return api.post<ReportAccess>('api/v2/user/profile/report/confirm', {
    dob: values.dob,
    ...(ssnRequired ? { ssnLast4: values.ssnLast4 } : {}),
  });
}

/** Confirms, then the access is the answer (granted) or read again (a wrong answer counts a try). */
export function useConfirmIdentity(ssnRequired: boolean) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: ConfirmIdentityValues) => confirmIdentity(values, ssnRequired),
    onSuccess: (access) => client.setQueryData(reportAccessQuery().queryKey, access),
  });
}
