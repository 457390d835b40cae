import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { notifications } from '@/lib/notifications';
import { resetSession } from '@/lib/session';
import { queryClient } from '@/lib/query-client';
import { documentContent, legalDocuments, subjectData, userPayload } from '@/testing/fixtures';
import { logInAs } from '@/testing/render-app';
import { server } from '@/testing/server';
import { adoptedSignature, forgetAdoptedSignature } from '../../lib/adopted-signature';
import type { LegalDocument } from '../../lib/legal-steps';
import { LegalStepper } from '../legal-stepper';

// A server that keeps what is signed: e-sign, disclosure, DOT release and
// the authorization, all shown to everyone.
function legalServer() {
  let documents: LegalDocument[] = legalDocuments([
    { id: 4, documentType: 'authorization_for_background', title: 'Authorization for background check' },
    { id: 2, documentType: 'disclosure', title: 'Background check disclosure' },
    { id: 1, documentType: 'e_sign', title: 'Consent to electronic signatures' },
    { id: 3, documentType: 'dot_release', title: 'DOT release' },
  ]);
  const signed: { id: number; body: Record<string, unknown> }[] = [];
  const deleted: number[] = [];
  let answer: ((id: number) => Response | undefined) | undefined;
  server.use(
    http.get('/api/v2/user/document', () => HttpResponse.json(documents)),
    http.get('/api/v2/user/data', () =>
      HttpResponse.json(
        subjectData({
          residency: { nonUs: false, state: 'US-TX', county: 0 },
          employment: { nonUs: false, state: 'US-TX', county: 0 },
        }),
      ),
    ),
    http.post('/api/v2/user/document/:id/signature', async ({ params, request }) => {
      const id = Number(params.id);
      const body = (await request.json()) as Record<string, unknown>;
      const refused = answer?.(id);
      if (refused) return refused;
      signed.push({ id, body });
      documents = documents.map((d) => {
        if (d.id !== id) return d;
        const done = legalDocuments([{ id, documentType: d.type.documentType, title: d.title, signed: true }])[0];
        if (body.declineESign && done.signature)
          done.signature = { ...done.signature, outcome: 'paper_forms', signatureData: '' };
        return done;
      });
      return HttpResponse.json(documents, { status: 201 });
    }),
    http.delete('/api/v2/user/document/:id', ({ params }) => {
      const id = Number(params.id);
      deleted.push(id);
      documents = documents.map((d) => (d.id === id ? { ...d, signature: null } : d));
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return { signed, deleted, refuse: (fn: typeof answer) => (answer = fn) };
}

function renderStepper() {
  const onComplete = vi.fn();
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={queryClient}>
      <LegalStepper onComplete={onComplete} />
    </QueryClientProvider>,
  );
  return { user, onComplete };
}

const stepList = () => within(screen.getByRole('navigation', { name: 'Legal documents' })).getAllByRole('button');

/** The image a typed signature gives on the stand-in canvas below: the name, as base64. */
const typedImage = (name: string) => `data:image/png;base64,${btoa(name)}`;

beforeEach(() => {
  logInAs(0);
  forgetAdoptedSignature();
  // jsdom has no canvas: the typed signature draws on a stand-in, whose image is the text written on it.
  let written = '';
  const context = new Proxy(
    {},
    {
      get: (target: Record<string, unknown>, key: string) =>
        key === 'fillText'
          ? (text: string) => {
              written = text;
            }
          : (target[key] ??= vi.fn()),
    },
  );
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(context as unknown as CanvasRenderingContext2D);
  vi.spyOn(HTMLCanvasElement.prototype, 'toDataURL').mockImplementation(() => typedImage(written));
});

async function signESign(user: ReturnType<typeof userEvent.setup>) {
  const form = await screen.findByRole('form', { name: 'Sign: Consent to electronic signatures' });
  expect(within(form).getByLabelText('First name')).toHaveValue('Dana');
  expect(within(form).getByLabelText('Last name')).toHaveValue('Demo');
  await user.click(within(form).getByLabelText('I agree to receive and sign these documents electronically.'));
  await user.click(within(form).getByLabelText('I can open, print or download the notices, and I have read them.'));
  await user.click(within(form).getByRole('button', { name: 'Agree and continue' }));
}

async function signDisclosure(user: ReturnType<typeof userEvent.setup>) {
  const form = await screen.findByRole('form', { name: 'Sign: Background check disclosure' });
  await user.click(within(form).getByLabelText('I have read this document and received a copy of it.'));
  await user.click(within(form).getByRole('button', { name: 'Type your signature instead' }));
  await user.type(within(form).getByLabelText('Type your full name as your signature'), 'Dana Demo');
  await user.click(within(form).getByRole('button', { name: 'Sign this document' }));
}

describe('the legal stepper', () => {
  it('shows the steps in priority order, the first open one active and the later ones not yet reachable', async () => {
    legalServer();
    renderStepper();
    expect(await screen.findByRole('heading', { name: 'Consent to electronic signatures' })).toBeInTheDocument();
    const steps = stepList();
    expect(steps.map((b) => b.textContent)).toEqual([
      '1Consent to electronic signatures (to sign)',
      '2Background check disclosure (to sign)',
      '3DOT release (to sign)',
      '4Authorization for background check (to sign)',
    ]);
    expect(steps[0]).toHaveAttribute('aria-current', 'step');
    expect(steps[1]).toBeDisabled();
    expect(steps[3]).toBeDisabled();
  });

  it("shows a document inside the page's outline: its headings below the step's, and no box of its own to scroll", async () => {
    legalServer();
    renderStepper();
    const step = await screen.findByRole('heading', { level: 3, name: 'Consent to electronic signatures' });
    // The fixture's text ("Document 1") starts with its title as an h1.
    const text = await screen.findByRole('article', { name: 'Document 1' });
    expect(within(text).getByRole('heading', { name: 'Document 1' })).toHaveProperty('tagName', 'H4');
    expect(text.querySelector('h1')).toBeNull();
    // Read in the page's scroll: not a focusable scroll region.
    expect(text).not.toHaveAttribute('tabindex');
    expect(step.compareDocumentPosition(text) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('fills in the names of the invitation for the applicant to check, in every step that asks for them', async () => {
    legalServer();
    const { user } = renderStepper();
    const consent = await screen.findByRole('form', { name: 'Sign: Consent to electronic signatures' });
    for (const [label, name] of [
      ['First name', 'Dana'],
      ['Last name', 'Demo'],
    ]) {
      const field = within(consent).getByLabelText(label);
      expect(field).toHaveValue(name);
      expect(field).toHaveAccessibleDescription('Filled in from your invitation: check it');
      expect(field).toBeEnabled();
    }
    await signESign(user);
    await signDisclosure(user);
    const dot = await screen.findByRole('form', { name: 'Sign: DOT release' });
    expect(within(dot).getByLabelText('First name')).toHaveValue('Dana');
    expect(within(dot).getByLabelText('Last name')).toHaveValue('Demo');
  });

  it('fills in the last four SSN digits on the DOT release when the personal information has them', async () => {
    logInAs(0, { payload: userPayload(0, { personalInformation: { ssnLastFour: '6789' } }) });
    const api = legalServer();
    const { user } = renderStepper();
    await signESign(user);
    await signDisclosure(user);
    const dot = await screen.findByRole('form', { name: 'Sign: DOT release' });
    const lastFour = within(dot).getByLabelText('Last four digits of your Social Security number');
    expect(lastFour).toHaveValue('6789');
    expect(lastFour).toHaveAccessibleDescription('Filled in from your personal information: check it');
    await user.click(within(dot).getByRole('button', { name: 'Sign this document' }));
    await waitFor(() => expect(api.signed.map((s) => s.id)).toEqual([1, 2, 3]));
    expect(api.signed[2].body).toMatchObject({ firstName: 'Dana', lastName: 'Demo', lastFourSSN: '6789' });
  });

  it('names must match the application, shown after touch, and signing is blocked until then', async () => {
    const api = legalServer();
    const { user } = renderStepper();
    const form = await screen.findByRole('form', { name: 'Sign: Consent to electronic signatures' });
    const first = within(form).getByLabelText('First name');
    await user.clear(first);
    await user.type(first, 'Donna');
    expect(within(form).queryByText(/must match/)).not.toBeInTheDocument();
    await user.tab();
    expect(
      await within(form).findByText('The first name must match the name on your application: Dana'),
    ).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: 'Agree and continue' })).toBeDisabled();
    expect(api.signed).toEqual([]);
  });

  it('says beside a disabled "Sign this document" what is still to do, also for fields not yet left', async () => {
    legalServer();
    const { user } = renderStepper();
    const consent = await screen.findByRole('form', { name: 'Sign: Consent to electronic signatures' });
    await user.clear(within(consent).getByLabelText('First name'));
    await user.type(within(consent).getByLabelText('First name'), 'Donna');
    expect(within(consent).getByRole('button', { name: 'Agree and continue' })).toHaveAccessibleDescription(
      'Still to do: type your name as it is on your application: Dana Demo; tick the boxes above.',
    );
    await user.clear(within(consent).getByLabelText('First name'));
    await user.type(within(consent).getByLabelText('First name'), 'Dana');
    await signESign(user);

    const form = await screen.findByRole('form', { name: 'Sign: Background check disclosure' });
    await user.click(within(form).getByRole('button', { name: 'Type your signature instead' }));
    await user.type(within(form).getByLabelText('Type your full name as your signature'), 'Dana Demo');
    const sign = within(form).getByRole('button', { name: 'Sign this document' });
    expect(sign).toBeDisabled();
    expect(sign).toHaveAccessibleDescription('Still to do: tick the box above.');
    expect(within(form).getByText('Still to do: tick the box above.')).toBeVisible();
    await user.click(within(form).getByRole('checkbox'));
    expect(sign).toBeEnabled();
    expect(within(form).queryByText(/Still to do/)).not.toBeInTheDocument();
  });

  it('asks for a signature only once the pad was used and cleared, not before it was touched', async () => {
    legalServer();
    const { user } = renderStepper();
    await signESign(user);
    const form = await screen.findByRole('form', { name: 'Sign: Background check disclosure' });
    await waitFor(() =>
      expect(within(form).getByRole('img', { name: /Signature drawing area/ })).toHaveAttribute('data-ready', 'true'),
    );
    expect(within(form).queryByText(/Please sign/)).not.toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Type your signature instead' }));
    expect(within(form).queryByText(/Please sign/)).not.toBeInTheDocument();
    await user.type(within(form).getByLabelText('Type your full name as your signature'), 'Dana');
    await user.clear(within(form).getByLabelText('Type your full name as your signature'));
    expect(within(form).getByText('Please sign: draw your signature, or type it.')).toBeInTheDocument();
  });

  it('a blur that comes from pressing a checkbox shows its message only once the press is over, so the click lands', async () => {
    legalServer();
    const { user } = renderStepper();
    const form = await screen.findByRole('form', { name: 'Sign: Consent to electronic signatures' });
    await user.clear(within(form).getByLabelText('First name'));
    await user.type(within(form).getByLabelText('First name'), 'Donna');
    const box = within(form).getByLabelText('I agree to receive and sign these documents electronically.');
    await user.pointer({ keys: '[MouseLeft>]', target: box });
    // Pressed: the name field lost focus, but nothing moves under the pointer yet.
    expect(within(form).getByLabelText('First name')).not.toHaveFocus();
    expect(within(form).queryByText(/must match/)).not.toBeInTheDocument();
    await user.pointer({ keys: '[/MouseLeft]', target: box });
    expect(box).toBeChecked();
    expect(
      await within(form).findByText('The first name must match the name on your application: Dana'),
    ).toBeInTheDocument();
  });

  it('signs a step with what was typed and the hash of the text read, then moves to the next step', async () => {
    const api = legalServer();
    const { user } = renderStepper();
    await signESign(user);
    expect(await screen.findByRole('heading', { name: 'Background check disclosure' })).toBeInTheDocument();
    expect(api.signed).toEqual([
      {
        id: 1,
        body: {
          firstName: 'Dana',
          lastName: 'Demo',
          ackConsent: true,
          ackNotices: true,
          contentSha256: { '1': 'sha-1' },
        },
      },
    ]);
    await signDisclosure(user);
    expect(await screen.findByRole('heading', { name: 'DOT release' })).toBeInTheDocument();
    expect(api.signed[1]).toMatchObject({
      id: 2,
      body: { ackReceipt: true, signature: typedImage('Dana Demo') },
    });
    expect(stepList()[0]).toHaveTextContent('(signed)');
  });

  it('returns to the first document, which shows it is signed', async () => {
    legalServer();
    const { user } = renderStepper();
    await signESign(user);
    await screen.findByRole('heading', { name: 'Background check disclosure' });
    await user.click(screen.getByRole('button', { name: 'Back to the first document' }));
    const first = await screen.findByRole('heading', { name: 'Consent to electronic signatures' });
    await waitFor(() => expect(first).toHaveFocus());
    expect(screen.getByText(/You signed this on/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download signed copy (PDF)' })).toBeInTheDocument();
  });

  it('a rejected SSN check raises ssn-mismatch; clearing deletes every signature and starts again at the first step', async () => {
    const api = legalServer();
    const { user } = renderStepper();
    const mismatch = vi.fn();
    window.addEventListener('ssn-mismatch', mismatch);
    await signESign(user);
    await signDisclosure(user);
    api.refuse((id) =>
      id === 3
        ? HttpResponse.json(
            {
              errorMessage: 'validation error',
              errorFields: [
                { field: 'lastFourSSN', message: 'The last four digits do not match.', code: 'ssn-mismatch' },
              ],
            },
            { status: 422 },
          )
        : undefined,
    );
    const form = await screen.findByRole('form', { name: 'Sign: DOT release' });
    expect(within(form).getByLabelText('First name')).toHaveValue('Dana');
    expect(within(form).getByLabelText('Last name')).toHaveValue('Demo');
    await user.type(within(form).getByLabelText('Last four digits of your Social Security number'), '1111');
    await user.click(within(form).getByRole('button', { name: 'Sign this document' }));

    expect(await within(form).findByText('The last four digits do not match.')).toBeInTheDocument();
    expect(mismatch).toHaveBeenCalledTimes(1);
    // The server's sentence shows once, on the field; the panel says what to do.
    expect(screen.getAllByText('The last four digits do not match.')).toHaveLength(1);
    expect(screen.getByText(/clear your signatures and sign again with the right ones/)).toBeInTheDocument();
    window.removeEventListener('ssn-mismatch', mismatch);
    await user.click(screen.getByRole('button', { name: 'Clear my signatures and sign again' }));
    await waitFor(() => expect(api.deleted.sort()).toEqual([1, 2]));
    expect(await screen.findByRole('form', { name: 'Sign: Consent to electronic signatures' })).toBeInTheDocument();
    expect(
      within(screen.getByRole('form', { name: 'Sign: Consent to electronic signatures' })).getByLabelText('First name'),
    ).toHaveValue('Dana');
    expect(notifications.getSnapshot().map((n) => n.text)).toContain(
      'Your signatures were cleared. Please read and sign the documents again.',
    );
  });

  it('completes once every step is signed', async () => {
    legalServer();
    const { user, onComplete } = renderStepper();
    await signESign(user);
    await signDisclosure(user);
    const dot = await screen.findByRole('form', { name: 'Sign: DOT release' });
    expect(within(dot).getByLabelText('First name')).toHaveValue('Dana');
    expect(within(dot).getByLabelText('Last name')).toHaveValue('Demo');
    await user.type(within(dot).getByLabelText('Last four digits of your Social Security number'), '6789');
    await user.click(within(dot).getByRole('button', { name: 'Sign this document' }));
    const auth = await screen.findByRole('form', { name: 'Sign: Authorization for background check' });
    expect(onComplete).not.toHaveBeenCalled();
    expect(within(auth).getByLabelText('First name')).toHaveValue('Dana');
    expect(within(auth).getByLabelText('Last name')).toHaveValue('Demo');
    await user.click(within(auth).getByLabelText('I authorize the background check described in this document.'));
    await user.click(within(auth).getByRole('button', { name: 'Sign this document' }));
    await waitFor(() => expect(onComplete).toHaveBeenCalledTimes(1));
  });

  it('declining the e-sign consent holds the screening for paper forms, and the choice can be undone', async () => {
    const api = legalServer();
    const { user, onComplete } = renderStepper();
    const form = await screen.findByRole('form', { name: 'Sign: Consent to electronic signatures' });
    await user.click(within(form).getByRole('button', { name: 'I do not consent: send me paper forms' }));
    await user.click(within(form).getByRole('button', { name: 'Yes, send me paper forms' }));
    expect(await screen.findByRole('heading', { name: 'You chose paper forms' })).toBeInTheDocument();
    expect(api.signed[0]).toMatchObject({ id: 1, body: { declineESign: true } });
    expect(screen.getByRole('heading', { name: 'Consent to electronic signatures' })).toBeInTheDocument();
    expect(stepList()[0]).toHaveTextContent('(paper forms requested)');
    expect(notifications.getSnapshot().map((n) => n.text)).toContain(
      'Paper forms requested: your screening waits for them.',
    );
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
    expect(onComplete).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Sign electronically instead' }));
    expect(await screen.findByRole('form', { name: 'Sign: Consent to electronic signatures' })).toBeInTheDocument();
    expect(api.deleted).toEqual([1]);
  });
});

describe('one signature, adopted document by document', () => {
  /** Signs the e-sign consent and types "Dana Demo" as the disclosure's signature, the first one asked. */
  async function toTheDOTRelease(user: ReturnType<typeof userEvent.setup>) {
    await signESign(user);
    await signDisclosure(user);
    return screen.findByRole('form', { name: 'Sign: DOT release' });
  }

  async function fillDOTRelease(user: ReturnType<typeof userEvent.setup>, form: HTMLElement) {
    expect(within(form).getByLabelText('First name')).toHaveValue('Dana');
    expect(within(form).getByLabelText('Last name')).toHaveValue('Demo');
    await user.type(within(form).getByLabelText('Last four digits of your Social Security number'), '6789');
  }

  it('the first document that needs a signature asks for it, and the typed field arrives empty', async () => {
    legalServer();
    const { user } = renderStepper();
    await signESign(user);
    const form = await screen.findByRole('form', { name: 'Sign: Background check disclosure' });
    expect(within(form).getByRole('img', { name: /Signature drawing area/ })).toBeInTheDocument();
    expect(within(form).queryByRole('img', { name: 'Your signature as you gave it' })).not.toBeInTheDocument();
    expect(within(form).getByRole('group', { name: 'Your signature' })).toHaveAccessibleDescription(
      /each is signed only when you press its own “Sign this document”/,
    );
    await user.click(within(form).getByRole('button', { name: 'Type your signature instead' }));
    expect(within(form).getByLabelText('Type your full name as your signature')).toHaveValue('');
    // Not a name field a browser fills in with the others.
    expect(within(form).getByLabelText('Type your full name as your signature')).toHaveAttribute('autocomplete', 'off');
    expect(within(form).getByRole('button', { name: 'Sign this document' })).toBeDisabled();
  });

  it('the next document offers the adopted signature and applies it only with the press of "Sign this document"', async () => {
    const api = legalServer();
    const { user } = renderStepper();
    const form = await toTheDOTRelease(user);
    expect(within(form).getByRole('img', { name: 'Your signature as you gave it' })).toHaveAttribute(
      'src',
      typedImage('Dana Demo'),
    );
    expect(within(form).queryByRole('img', { name: /Signature drawing area/ })).not.toBeInTheDocument();
    // What the step asks besides the signature is still asked; nothing is signed meanwhile.
    const sign = within(form).getByRole('button', { name: 'Sign this document' });
    expect(sign).toBeDisabled();
    // The names are filled in from the invitation: the last four digits are what is left.
    expect(sign).toHaveAccessibleDescription(/^Still to do: type the last four digits/i);
    expect(sign).not.toHaveAccessibleDescription(/signature/);
    await fillDOTRelease(user, form);
    expect(sign).toBeEnabled();
    expect(api.signed.map((s) => s.id)).toEqual([1, 2]);

    await user.click(sign);
    await screen.findByRole('form', { name: 'Sign: Authorization for background check' });
    expect(api.signed.map((s) => s.id)).toEqual([1, 2, 3]);
    expect(api.signed[2].body).toMatchObject({ lastFourSSN: '6789', signature: typedImage('Dana Demo') });
  });

  it('each document posts its own signature: one press, one document', async () => {
    const api = legalServer();
    const { user, onComplete } = renderStepper();
    const dot = await toTheDOTRelease(user);
    await fillDOTRelease(user, dot);
    await user.click(within(dot).getByRole('button', { name: 'Sign this document' }));
    const auth = await screen.findByRole('form', { name: 'Sign: Authorization for background check' });
    // Offered again, and again not applied: the authorization waits for its own press.
    expect(within(auth).getByRole('img', { name: 'Your signature as you gave it' })).toBeInTheDocument();
    expect(within(auth).getByLabelText('First name')).toHaveValue('Dana');
    expect(within(auth).getByLabelText('Last name')).toHaveValue('Demo');
    await user.click(within(auth).getByLabelText('I authorize the background check described in this document.'));
    expect(api.signed.map((s) => s.id)).toEqual([1, 2, 3]);
    await user.click(within(auth).getByRole('button', { name: 'Sign this document' }));
    await waitFor(() => expect(onComplete).toHaveBeenCalledTimes(1));
    expect(api.signed.map((s) => [s.id, s.body.signature, s.body.contentSha256])).toEqual([
      [1, undefined, { '1': 'sha-1' }],
      [2, typedImage('Dana Demo'), { '2': 'sha-2' }],
      [3, typedImage('Dana Demo'), { '3': 'sha-3' }],
      [4, typedImage('Dana Demo'), { '4': 'sha-4' }],
    ]);
  });

  it('a different signature goes on this document only; the next one offers the adopted one again', async () => {
    const api = legalServer();
    const { user } = renderStepper();
    const dot = await toTheDOTRelease(user);
    await fillDOTRelease(user, dot);
    await user.click(within(dot).getByRole('button', { name: 'Use a different signature for this document' }));
    // An empty pad, with the focus on it: nothing of the adopted signature is carried over.
    expect(within(dot).queryByRole('img', { name: 'Your signature as you gave it' })).not.toBeInTheDocument();
    await waitFor(() => expect(within(dot).getByRole('img', { name: /Signature drawing area/ })).toHaveFocus());
    const sign = within(dot).getByRole('button', { name: 'Sign this document' });
    expect(sign).toBeDisabled();
    expect(sign).toHaveAccessibleDescription('Still to do: draw or type your signature.');

    // Changing one's mind back offers the adopted one, with the focus on the way to change again.
    await user.click(within(dot).getByRole('button', { name: 'Use the signature you gave earlier' }));
    expect(within(dot).getByRole('img', { name: 'Your signature as you gave it' })).toBeInTheDocument();
    expect(within(dot).getByRole('button', { name: 'Use a different signature for this document' })).toHaveFocus();
    await user.click(within(dot).getByRole('button', { name: 'Use a different signature for this document' }));

    await user.click(within(dot).getByRole('button', { name: 'Type your signature instead' }));
    expect(within(dot).getByLabelText('Type your full name as your signature')).toHaveValue('');
    await user.type(within(dot).getByLabelText('Type your full name as your signature'), 'D. Demo');
    await user.click(sign);
    const auth = await screen.findByRole('form', { name: 'Sign: Authorization for background check' });
    expect(api.signed[2].body.signature).toBe(typedImage('D. Demo'));
    expect(within(auth).getByRole('img', { name: 'Your signature as you gave it' })).toHaveAttribute(
      'src',
      typedImage('Dana Demo'),
    );
  });

  it('a logout forgets the adopted signature', async () => {
    legalServer();
    const { user } = renderStepper();
    await toTheDOTRelease(user);
    expect(adoptedSignature()).toBe(typedImage('Dana Demo'));
    resetSession();
    expect(adoptedSignature()).toBe('');
  });
});

describe('where the applicant lives decides the county notice', () => {
  // The federal summary for everyone, and the San Francisco notice (county 6075).
  function countyServer() {
    const documents = legalDocuments([
      { id: 5, documentType: 'rights_fed', title: 'A Summary of Your Rights' },
      { id: 6, documentType: 'rights_sf', title: 'San Francisco Fair Chance Ordinance' },
    ]).map((d) =>
      d.id === 6 ? { ...d, type: { ...d.type, visibility: 'regional', regions: [{ county: 6075 }] } } : d,
    );
    const place = { nonUs: false, state: '', county: 0 };
    let location = { residency: place, employment: { ...place, state: 'US-NY', county: 36061 } };
    const sent: unknown[] = [];
    server.use(
      http.get('/api/v2/user/document', () => HttpResponse.json(documents)),
      http.get('/api/v2/document/:id', ({ params }) => {
        const id = Number(params.id);
        return HttpResponse.json(documentContent(id, documents.find((d) => d.id === id)?.title));
      }),
      http.get('/api/v2/user/data', () => HttpResponse.json(subjectData(location))),
      http.post('/api/v2/user/data', async ({ request }) => {
        const body = (await request.json()) as { location: { residency: typeof place } };
        sent.push(body);
        location = { ...location, residency: body.location.residency };
        return HttpResponse.json(subjectData(location));
      }),
    );
    return sent;
  }

  it.each([
    {
      county: 'San Francisco County',
      id: 6075,
      notices: ['A Summary of Your Rights', 'San Francisco Fair Chance Ordinance'],
    },
    { county: 'Another county', id: 0, notices: ['A Summary of Your Rights'] },
  ])('a Californian of $county working in New York', async ({ county, id, notices }) => {
    const sent = countyServer();
    const { user } = renderStepper();
    await screen.findAllByRole('option', { name: 'California' });
    // The employer said where the job is: only the residency is asked.
    expect(screen.queryByRole('group', { name: 'Where will you work?' })).not.toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'State' }), 'California');
    await user.selectOptions(screen.getByRole('combobox', { name: /^County/ }), county);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('heading', { level: 3, name: 'Your rights' });
    expect(sent).toEqual([{ location: { residency: { nonUs: false, state: 'US-CA', county: id } } }]);
    await screen.findByRole('article', { name: notices[0] });
    expect(screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'))).toEqual(notices);
  });
});
