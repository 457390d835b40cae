// /self-pay: the hold the employer's screening provider asks for, and the card form that
// places it. A hold already placed shows its receipt instead. Either way the applicant then
// moves on to finalization-complete (2) and the home page.
import '@/features/self-pay/lib/messages';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type ChangeEvent } from 'react';
import { useNavigate } from 'react-router';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { TextField } from '@/components/ui/text-field';
import { paths } from '@/config/paths';
import { ApiError, errorMessageOf } from '@/lib/api-client';
import { moveSubjectStatus } from '@/lib/auth';
import { config } from '@/lib/config';
import { useAppForm } from '@/lib/form';
import { useFailedSave } from '@/lib/failed-save';
import { useKeepFocusOnPress } from '@/lib/keep-focus';
import { t } from '@/lib/i18n';
import { notify } from '@/lib/notifications';
import { statusIds } from '@/lib/subject-status';
import { formatAmount, paymentQuery, usePayment, type PaymentAuthorization, type PaymentState } from '@/lib/payment';
import { authorizePayment } from '../api/payment';
import {
  brandName,
  caretAfterDigits,
  cardBrand,
  cvcLength,
  digitsOf,
  formatCardNumber,
  formatExpiry,
} from '../lib/card';
import { cardSchema, emptyCard, type CardValues } from '../lib/card-schema';
import { idempotencyKeys } from '../lib/idempotency';
import styles from './self-pay.module.css';
import { currentLocale } from '@/lib/locale';

/** Moving on once paid: finalization-complete, then home. */
function useContinue() {
  const navigate = useNavigate();
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const proceed = async () => {
    setState({ busy: true, error: null });
    try {
      await moveSubjectStatus(statusIds['finalization-complete']);
      await navigate(paths.home.getHref(), { replace: true });
    } catch (error) {
      setState({ busy: false, error: errorMessageOf(error) });
    }
  };
  return { ...state, proceed };
}

type Continuation = ReturnType<typeof useContinue>;

function ContinueButton({ continuation }: { continuation: Continuation }) {
  return (
    <>
      {continuation.error ? (
        <Alert focusOnMount>
          <p>{continuation.error}</p>
        </Alert>
      ) : null}
      <div>
        <Button loading={continuation.busy} onClick={() => void continuation.proceed()}>
          {t('payment.continue')}
        </Button>
      </div>
    </>
  );
}

function SecureNote() {
  return (
    <p className={styles.secure}>
      <svg className={styles.lock} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
        <path
          fill="currentColor"
          d="M8 1a3.5 3.5 0 0 0-3.5 3.5V6H4a1.5 1.5 0 0 0-1.5 1.5v6A1.5 1.5 0 0 0 4 15h8a1.5 1.5 0 0 0 1.5-1.5v-6A1.5 1.5 0 0 0 12 6h-.5V4.5A3.5 3.5 0 0 0 8 1Zm2 5H6V4.5a2 2 0 1 1 4 0V6Z"
        />
      </svg>
      {t('payment.secure')}
    </p>
  );
}

function Receipt({ authorization, continuation }: { authorization: PaymentAuthorization; continuation: Continuation }) {
  const date = new Date(authorization.authorizedAt);
  return (
    <Card aria-labelledby="payment-receipt" className={styles.card}>
      <h2 id="payment-receipt" className={styles.heading}>
        {t('payment.receipt.title')}
      </h2>
      <p className={styles.text}>{t('payment.receipt.text')}</p>
      <dl className={styles.receipt}>
        <div>
          <dt>{t('payment.receipt.amount')}</dt>
          <dd>{formatAmount(authorization.amount, authorization.currency)}</dd>
        </div>
        <div>
          <dt>{t('payment.receipt.card')}</dt>
          <dd>{t('payment.receipt.cardEnding', { brand: authorization.brand, last4: authorization.last4 })}</dd>
        </div>
        <div>
          <dt>{t('payment.receipt.reference')}</dt>
          <dd>{authorization.id}</dd>
        </div>
        {Number.isNaN(date.getTime()) ? null : (
          <div>
            <dt>{t('payment.receipt.date')}</dt>
            <dd>{date.toLocaleString(currentLocale(), { dateStyle: 'long', timeStyle: 'short' })}</dd>
          </div>
        )}
      </dl>
      <ContinueButton continuation={continuation} />
    </Card>
  );
}

/**
 * Reformats a field as typed (card number groups, the expiry's slash) and keeps the caret
 * after the same digits, so correcting a digit in the middle does not throw it to the end.
 */
function reformat(event: ChangeEvent<HTMLInputElement>, format: (value: string, deleting: boolean) => string) {
  const input = event.target;
  const caret = input.selectionStart ?? input.value.length;
  const atEnd = caret === input.value.length;
  const digitsBefore = digitsOf(input.value.slice(0, caret)).length;
  const inputType = (event.nativeEvent as InputEvent).inputType ?? '';
  const formatted = format(input.value, inputType.startsWith('delete'));
  if (formatted === input.value) return;
  input.value = formatted;
  const position = atEnd ? formatted.length : caretAfterDigits(formatted, digitsBefore);
  input.setSelectionRange(position, position);
}

const onlyDigits = (max: number) => (event: ChangeEvent<HTMLInputElement>) =>
  reformat(event, (value) => digitsOf(value).slice(0, max));

function CardForm({
  payment,
  onAuthorized,
}: {
  payment: PaymentState;
  onAuthorized: (a: PaymentAuthorization) => void;
}) {
  const schema = useMemo(() => cardSchema(), []);
  const keyFor = useMemo(() => idempotencyKeys(), []);
  const [refusal, setRefusal] = useState<{ message: string; focus: boolean; attempt: number } | null>(null);
  const form = useAppForm<CardValues>(schema, { defaultValues: emptyCard });
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors, isSubmitting },
  } = form;
  // The summary links to the fields; the server's own words go above the button (refusal).
  const failed = useFailedSave(form);
  useKeepFocusOnPress(failed.formRef);
  const brand = cardBrand(watch('cardNumber'));
  const cvcDigits = cvcLength(watch('cardNumber'));
  const amount = formatAmount(payment.amount, payment.currency);

  const submit = handleSubmit(async (values) => {
    failed.clear();
    setRefusal(null);
    try {
      const { authorization } = await authorizePayment({ ...values, idempotencyKey: keyFor({ ...values }) });
      onAuthorized(authorization);
    } catch (error) {
      // What was typed stays: the applicant corrects one thing and sends again.
      const found = failed.onServerError(error, { fieldsOnly: true });
      // The server's own message above the button, unless it only repeats a field's or is 422's bare "validation error".
      const main =
        error instanceof ApiError &&
        error.status !== 422 &&
        !error.errorFields.some((f) => f.message === error.errorMessage)
          ? error.errorMessage
          : null;
      const messages = [main, ...found.messages.filter((m) => m !== main)].filter((m): m is string => Boolean(m));
      setRefusal(
        messages.length > 0
          ? { message: messages.join(' '), focus: found.fields.length === 0, attempt: Date.now() }
          : null,
      );
    }
  }, failed.onInvalid);

  const cardNumber = register('cardNumber');
  const expiry = register('expiry');
  const cvc = register('cvc');
  const postalCode = register('postalCode');

  return (
    <Card aria-labelledby="payment-form-title" className={styles.card}>
      <form
        ref={failed.formRef}
        onSubmit={submit}
        noValidate
        aria-labelledby="payment-form-title"
        className={styles.form}
      >
        <h2 id="payment-form-title" className={styles.heading}>
          {t('payment.formTitle')}
        </h2>
        <ErrorSummary key={failed.attempt} {...failed.summary} />
        <TextField
          label={t('payment.cardNumber')}
          required
          inputMode="numeric"
          autoComplete="cc-number"
          spellCheck={false}
          hint={brand ? t('payment.cardBrand', { brand: brandName(brand) }) : t('payment.cardNumberHint')}
          error={errors.cardNumber?.message}
          {...cardNumber}
          onChange={(event) => {
            reformat(event, formatCardNumber);
            return cardNumber.onChange(event);
          }}
        />
        <div className={styles.pair}>
          <TextField
            label={t('payment.expiry')}
            required
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder={t('payment.expiryPlaceholder')}
            maxLength={5}
            hint={t('payment.expiryHint')}
            error={errors.expiry?.message}
            {...expiry}
            onChange={(event) => {
              reformat(event, formatExpiry);
              return expiry.onChange(event);
            }}
          />
          <TextField
            label={t('payment.cvc')}
            required
            inputMode="numeric"
            autoComplete="cc-csc"
            maxLength={4}
            hint={cvcDigits === 4 ? t('payment.cvcHintAmex') : t('payment.cvcHint')}
            error={errors.cvc?.message}
            {...cvc}
            onChange={(event) => {
              onlyDigits(4)(event);
              return cvc.onChange(event);
            }}
          />
        </div>
        <TextField
          label={t('payment.name')}
          required
          autoComplete="cc-name"
          spellCheck={false}
          error={errors.cardholderName?.message}
          {...register('cardholderName')}
        />
        <TextField
          label={t('payment.postalCode')}
          required
          inputMode="numeric"
          autoComplete="postal-code"
          maxLength={5}
          hint={t('payment.postalCodeHint')}
          error={errors.postalCode?.message}
          {...postalCode}
          onChange={(event) => {
            onlyDigits(5)(event);
            return postalCode.onChange(event);
          }}
        />
        <SecureNote />
        {refusal ? (
          <Alert key={refusal.attempt} focusOnMount={refusal.focus}>
            <p>{refusal.message}</p>
          </Alert>
        ) : null}
        <div className={styles.submit}>
          <Button type="submit" loading={isSubmitting}>
            {isSubmitting ? t('payment.submitting') : t('payment.submit', { amount })}
          </Button>
          {/* A processor can take seconds to answer: say so, so nobody reloads and pays twice. */}
          <p role="status" className={styles.wait}>
            {isSubmitting ? t('payment.wait') : null}
          </p>
        </div>
      </form>
    </Card>
  );
}

export function SelfPayPage() {
  const payment = usePayment();
  const queryClient = useQueryClient();
  const continuation = useContinue();

  const onAuthorized = (authorization: PaymentAuthorization) => {
    queryClient.setQueryData(paymentQuery().queryKey, (old) => (old ? { ...old, authorization } : old));
    notify(t('payment.authorized'), 'success');
    void continuation.proceed();
  };

  let body;
  if (payment.isError) {
    body = (
      <Alert title={t('payment.loadFailedTitle')} focusOnMount>
        <p>{errorMessageOf(payment.error)}</p>
        <Button variant="secondary" loading={payment.isFetching} onClick={() => void payment.refetch()}>
          {t('common.tryAgain')}
        </Button>
      </Alert>
    );
  } else if (!payment.data) {
    body = <Skeleton lines={6} label={t('payment.loading')} />;
  } else if (payment.data.authorization) {
    body = <Receipt authorization={payment.data.authorization} continuation={continuation} />;
  } else if (!payment.data.required) {
    body = (
      <Card aria-labelledby="payment-not-required" className={styles.card}>
        <h2 id="payment-not-required" className={styles.heading}>
          {t('payment.notRequiredTitle')}
        </h2>
        <p className={styles.text}>{t('payment.notRequiredText')}</p>
        <ContinueButton continuation={continuation} />
      </Card>
    );
  } else {
    const amount = formatAmount(payment.data.amount, payment.data.currency);
    body = (
      <>
        <Card aria-labelledby="payment-hold" className={styles.card}>
          <p className={styles.amount}>
            <span className={styles.amountLabel}>{t('payment.amountLabel')}</span>
            <span className={styles.amountValue}>{amount}</span>
          </p>
          <h2 id="payment-hold" className={styles.heading}>
            {t('payment.holdTitle')}
          </h2>
          <p className={styles.text}>{t('payment.holdText', { amount, provider: config.brand.name })}</p>
        </Card>
        <CardForm payment={payment.data} onAuthorized={onAuthorized} />
      </>
    );
  }

  return (
    <div className={styles.page}>
      <PageHeader title={t('payment.title')} description={t('payment.intro')} />
      {body}
    </div>
  );
}
