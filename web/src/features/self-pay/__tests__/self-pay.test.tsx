import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { notifications } from '@/lib/notifications';
import { paymentAuthorization, userPayload } from '@/testing/fixtures';
import { logInAs, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

type AuthBody = Record<string, string>;

/** GET /api/v2/payment owes $25 (or shows `paid`); POST auth answers `answers` in turn (the last repeats). */
function mock(answers: ((body: AuthBody) => Response)[] = [], paid: typeof paymentAuthorization | null = null) {
  const sent: AuthBody[] = [];
  const moves: unknown[] = [];
  let status = 7;
  server.use(
    http.get('/api/v2/payment', () =>
      HttpResponse.json({ required: true, amount: '25.00', currency: 'USD', exemptState: null, authorization: paid }),
    ),
    http.post('/api/v2/payment/auth', async ({ request }) => {
      const body = (await request.json()) as AuthBody;
      sent.push(body);
      const answer = answers[Math.min(sent.length - 1, answers.length - 1)];
      return answer(body);
    }),
    http.post('/api/v2/user/subject/status', async ({ request }) => {
      const body = (await request.json()) as { statusId: number };
      moves.push(body);
      status = body.statusId;
      return HttpResponse.json(userPayload(status));
    }),
    http.get('/api/v2/user', () => HttpResponse.json(userPayload(status))),
    // What the home page reads once the applicant arrives there.
    http.get('/api/v2/user/collection-site', () =>
      HttpResponse.json({ site: null, chosenAt: null, collectedAt: null, changeable: false }),
    ),
  );
  return { sent, moves };
}

const ok = () => HttpResponse.json({ message: 'Payment successfully authorized', authorization: paymentAuthorization });
const refused =
  (status: number, errorMessage: string, errorFields: { field: string; message: string }[] = []) =>
  () =>
    HttpResponse.json({ errorMessage, errorFields }, { status });

async function open() {
  logInAs(7);
  const view = renderApp('/self-pay');
  await screen.findByRole('heading', { level: 1, name: 'Pay for your screening' });
  await screen.findByLabelText(/Card number/);
  return view;
}

const field = (name: RegExp) => screen.getByLabelText(name) as HTMLInputElement;

async function fill(user: ReturnType<typeof renderApp>['user'], card = '4242424242424242', cvc = '123') {
  await user.type(field(/Card number/), card);
  await user.type(field(/Expiry date/), '1234');
  await user.type(field(/Security code/), cvc);
  await user.type(field(/Name on card/), 'Dana Demo');
  await user.type(field(/Billing ZIP code/), '78701');
}

describe('/self-pay', () => {
  it('shows the amount as a hold, not a charge, and the secure note', async () => {
    mock();
    await open();
    expect(screen.getByText('$25.00')).toBeInTheDocument();
    expect(screen.getByText('A hold, not a charge yet')).toBeInTheDocument();
    expect(
      screen.getByText(/placed as a hold \(an authorization\) on your card by ClearPath Screening/),
    ).toBeInTheDocument();
    expect(
      screen.getByText('Your card number is sent to the payment processor and is never stored by the portal.'),
    ).toBeInTheDocument();
    expect(field(/Card number/)).toHaveAttribute('autocomplete', 'cc-number');
    expect(field(/Card number/)).toHaveAttribute('inputmode', 'numeric');
    expect(field(/Expiry date/)).toHaveAttribute('autocomplete', 'cc-exp');
    expect(field(/Security code/)).toHaveAttribute('autocomplete', 'cc-csc');
    expect(field(/Name on card/)).toHaveAttribute('autocomplete', 'cc-name');
    expect(field(/Billing ZIP code/)).toHaveAttribute('autocomplete', 'postal-code');
    expect(screen.getByRole('button', { name: 'Authorize $25.00' })).toBeInTheDocument();
  });

  it('formats the card number and expiry as typed and names the brand', async () => {
    mock();
    const { user } = await open();
    await user.type(field(/Card number/), '4242424242424242');
    expect(field(/Card number/)).toHaveValue('4242 4242 4242 4242');
    expect(screen.getByText('Visa card')).toBeInTheDocument();
    await user.clear(field(/Card number/));
    await user.type(field(/Card number/), '3782822463100059');
    expect(field(/Card number/)).toHaveValue('3782 822463 10005');
    expect(screen.getByText('American Express card')).toBeInTheDocument();
    expect(screen.getByText('4 digits on the front of your card.')).toBeInTheDocument();
    await user.type(field(/Expiry date/), '1234');
    expect(field(/Expiry date/)).toHaveValue('12/34');
    await user.type(field(/Billing ZIP code/), '7a8701');
    expect(field(/Billing ZIP code/)).toHaveValue('78701');
  });

  it('says a mistyped card number is not valid once the field is left', async () => {
    mock();
    const { user } = await open();
    await user.type(field(/Card number/), '4242424242424241');
    await user.tab();
    const message = 'This is not a valid card number. Check the digits and try again.';
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(field(/Card number/)).toHaveAttribute('aria-invalid', 'true');
    expect(field(/Card number/)).toHaveAccessibleDescription(expect.stringContaining(message));
  });

  it('lists every problem on submit and sends nothing', async () => {
    const { sent } = mock([ok]);
    const { user } = await open();
    await user.type(field(/Security code/), '12');
    await user.click(screen.getByRole('button', { name: 'Authorize $25.00' }));
    const summary = (await screen.findByText('There are 5 problems')).closest('[role="alert"]');
    await waitFor(() => expect(summary).toHaveFocus());
    expect(within(summary as HTMLElement).getByRole('link', { name: /Card number/ })).toBeInTheDocument();
    expect(screen.getByText('Enter the 3-digit security code.')).toBeInTheDocument();
    expect(sent).toEqual([]);
  });

  it("shows a decline's message above the button and keeps what was typed", async () => {
    mock([refused(402, 'Your card was declined. Please use another card.')]);
    const { user } = await open();
    await fill(user, '4000000000000002');
    await user.click(screen.getByRole('button', { name: 'Authorize $25.00' }));
    const alert = await screen.findByText('Your card was declined. Please use another card.');
    await waitFor(() => expect(alert.closest('[role="alert"]')).toHaveFocus());
    expect(field(/Card number/)).toHaveValue('4000 0000 0000 0002');
    expect(field(/Expiry date/)).toHaveValue('12/34');
    expect(field(/Security code/)).toHaveValue('123');
    expect(field(/Name on card/)).toHaveValue('Dana Demo');
    expect(field(/Billing ZIP code/)).toHaveValue('78701');
  });

  it('says it is waiting for the processor while the authorization is under way', async () => {
    let answer: (r: Response) => void = () => {};
    mock([() => new Promise<Response>((resolve) => (answer = resolve)) as unknown as Response]);
    const { user } = await open();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Authorize $25.00' }));
    const wait = await screen.findByText(
      'Waiting for the payment processor. This can take a few seconds: please keep this page open.',
    );
    // Announced: a screen reader hears why nothing seems to happen.
    expect(wait).toHaveAttribute('role', 'status');
    expect(screen.getByRole('button', { name: /Authorizing/ })).toBeDisabled();
    answer(refused(402, 'Your card was declined. Please use another card.')() as Response);
    await screen.findByText('Your card was declined. Please use another card.');
    expect(screen.queryByText(/Waiting for the payment processor/)).not.toBeInTheDocument();
  });

  it("puts the server's field errors next to their fields", async () => {
    mock([
      refused(402, 'The security code is incorrect.', [{ field: 'cvc', message: 'The security code is incorrect.' }]),
    ]);
    const { user } = await open();
    await fill(user, '4000000000000127');
    await user.click(screen.getByRole('button', { name: 'Authorize $25.00' }));
    await expect.poll(() => field(/Security code/).getAttribute('aria-invalid')).toBe('true');
    expect(field(/Security code/)).toHaveAccessibleDescription(
      expect.stringContaining('The security code is incorrect.'),
    );
    expect(field(/Security code/)).toHaveFocus();
  });

  it('authorizes, says so, moves to finalization-complete and goes home', async () => {
    const { sent, moves } = mock([ok]);
    const { user, router } = await open();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Authorize $25.00' }));
    await expect.poll(() => router.state.location.pathname).toBe('/');
    expect(moves).toEqual([{ statusId: 2 }]);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      cardNumber: '4242 4242 4242 4242',
      expiry: '12/34',
      cvc: '123',
      cardholderName: 'Dana Demo',
      postalCode: '78701',
    });
    expect(sent[0].idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(notifications.getSnapshot().map((s) => s.text)).toContain('Payment successfully authorized');
  });

  it('sends the same idempotency key again after a timeout, and a new one for another card after a decline', async () => {
    const timeout = 'The payment processor did not answer in time. Please try again: you will not be charged twice.';
    const { sent } = mock([
      refused(504, timeout),
      refused(402, 'Your card was declined. Please use another card.'),
      refused(402, 'Your card was declined. Please use another card.'),
    ]);
    const { user } = await open();
    await fill(user);
    const submit = screen.getByRole('button', { name: 'Authorize $25.00' });
    await user.click(submit);
    expect(await screen.findByText(timeout)).toBeInTheDocument();
    await user.click(submit);
    expect(await screen.findByText('Your card was declined. Please use another card.')).toBeInTheDocument();
    expect(sent[1].idempotencyKey).toBe(sent[0].idempotencyKey);

    await user.clear(field(/Card number/));
    await user.type(field(/Card number/), '5555555555554444');
    await user.click(submit);
    await expect.poll(() => sent.length).toBe(3);
    expect(sent[2].idempotencyKey).not.toBe(sent[1].idempotencyKey);
  });

  it('already authorized: shows the receipt and continues', async () => {
    const { moves } = mock([], paymentAuthorization);
    logInAs(7);
    const { user, router } = renderApp('/self-pay');
    const receipt = await screen.findByRole('region', { name: 'Payment authorized' });
    expect(within(receipt).getByText('$25.00')).toBeInTheDocument();
    expect(within(receipt).getByText('Visa ending in 4242')).toBeInTheDocument();
    expect(within(receipt).getByText('auth_123')).toBeInTheDocument();
    expect(screen.queryByLabelText(/Card number/)).not.toBeInTheDocument();
    await user.click(within(receipt).getByRole('button', { name: 'Continue' }));
    await expect.poll(() => router.state.location.pathname).toBe('/');
    expect(moves).toEqual([{ statusId: 2 }]);
  });
});
