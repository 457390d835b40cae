// The checks of one field that both history forms make, as the server's
// checkHistoryText, checkMonth and checkMonthRange (internal/portal/aliases.go),
// with the same messages: internal/portal/testdata/alias-cases.json and
// address-cases.json hold the cases both sides run.
import '@/features/history/lib/messages';
import { missingPartsMessage } from '@/lib/date-parts';
import { t } from '@/lib/i18n';
import { monthIndex } from '@/lib/months';

/** Every field error by path ("aliases.1.lastName"); put keeps the first rule broken on each field. */
export function fieldErrors() {
  const errors: Record<string, string> = {};
  const put = (field: string, message: string) => {
    errors[field] ??= message;
  };
  return { errors, put };
}

type Put = (field: string, message: string) => void;

/** A required or optional text (trimmed) of at most max characters, counted as the server counts them. */
export function checkText(put: Put, field: string, label: string, value: string, required: boolean, max: number) {
  const v = value.trim();
  if (!v) {
    if (required) put(field, t('history.rule.required', { label }));
  } else if ([...v].length > max) {
    put(field, t('history.rule.tooLong', { label, max }));
  }
}

/**
 * A month field ("YYYY-MM", from 1900 on, not after today's month): its month count, or undefined
 * when it is empty or its message is put.
 */
export function checkMonth(
  put: Put,
  field: string,
  label: string,
  value: string,
  required: boolean,
  today: number,
): number | undefined {
  if (!value.trim()) {
    if (required) put(field, t('history.rule.required', { label }));
    return undefined;
  }
  const month = monthIndex(value);
  if (Number.isNaN(month)) {
    // A box left empty in the month and year boxes: said as GOV.UK says it; anything else, as the server.
    put(field, missingPartsMessage(value.trim(), 'month', label) ?? t('history.rule.badMonth', { label }));
    return undefined;
  }
  if (month > today) {
    put(field, t('history.rule.future', { label }));
    return undefined;
  }
  return month;
}

/** A period's end not before its start; said only when both months are right. */
export function checkMonthOrder(
  put: Put,
  field: string,
  labels: { from: string; to: string },
  from?: number,
  to?: number,
) {
  if (from !== undefined && to !== undefined && to < from) {
    put(field, t('history.rule.before', { label: labels.to, other: labels.from }));
  }
}
