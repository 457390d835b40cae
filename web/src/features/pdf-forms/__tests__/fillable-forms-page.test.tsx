import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { PDFDocument, PDFHexString, PDFName } from 'pdf-lib';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { logInAs, renderApp, settled } from '@/testing/render-app';
import { server } from '@/testing/server';
import type { PdfForm } from '../api/pdf-forms';
import { dateField, dateOf, typeDate } from '@/testing/dates';
import { userPayload } from '@/testing/fixtures';
import type { UserPayload } from '@/types/api';

// pdf.js draws on a real canvas, which jsdom lacks; the preview is seen in the browser (e2e).
vi.mock('../components/pdf-preview', () => ({
  PdfPreview: () => <section aria-label="Preview" />,
}));

const idaho = (overrides: Partial<PdfForm> = {}): PdfForm => ({
  id: 3,
  code: 'idaho-release',
  title: 'Idaho background check release (sample)',
  description: 'Lets the employer obtain your Idaho records.',
  required: true,
  fieldNames: ['applicant_full_name', 'date_of_birth', 'copy_delivery', 'authorization'],
  submitted: null,
  ...overrides,
});

const mvr: PdfForm = {
  id: 4,
  code: 'mvr-request',
  title: 'Motor vehicle record request (sample)',
  description: '',
  required: false,
  fieldNames: ['license_number'],
  submitted: {
    name: 'mvr-request.pdf',
    size: 2048,
    sha256: 'ab'.repeat(32),
    submittedAt: '2026-11-20T10:00:00Z',
  },
};

async function idahoTemplate(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage();
  const form = doc.getForm();
  const name = form.createTextField('applicant_full_name');
  name.enableRequired();
  name.acroField.dict.set(PDFName.of('TU'), PDFHexString.fromText('Full legal name'));
  name.addToPage(page, { x: 40, y: 700, width: 300, height: 20 });
  const birth = form.createTextField('date_of_birth');
  birth.acroField.dict.set(PDFName.of('TU'), PDFHexString.fromText('Date of birth (MM/DD/YYYY)'));
  birth.addToPage(page, { x: 40, y: 660, width: 120, height: 20 });
  const delivery = form.createRadioGroup('copy_delivery');
  delivery.addOptionToPage('email', page, { x: 40, y: 620, width: 14, height: 14 });
  delivery.addOptionToPage('postal_mail', page, { x: 90, y: 620, width: 14, height: 14 });
  delivery.addOptionToPage('in-person', page, { x: 140, y: 620, width: 14, height: 14 });
  const consent = form.createCheckBox('authorization');
  consent.acroField.dict.set(PDFName.of('TU'), PDFHexString.fromText('I authorize the release of my Idaho records.'));
  consent.addToPage(page, { x: 40, y: 580, width: 14, height: 14 });
  return doc.save();
}

/** A driving record request: the issuing state as PDFs list it (postal codes), and another dropdown. */
async function mvrTemplate(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage();
  const form = doc.getForm();
  const state = form.createDropdown('issuing_state');
  state.addOptions(['TX', 'CA']);
  state.enableRequired();
  state.acroField.dict.set(PDFName.of('TU'), PDFHexString.fromText('Issuing state'));
  state.addToPage(page, { x: 40, y: 700, width: 120, height: 20 });
  const purpose = form.createDropdown('purpose');
  purpose.addOptions(['Employment', 'Volunteering']);
  purpose.addToPage(page, { x: 40, y: 660, width: 120, height: 20 });
  return doc.save();
}

let template: Uint8Array;
let mvrPdf: Uint8Array;
beforeEach(async () => {
  template ??= await idahoTemplate();
  mvrPdf ??= await mvrTemplate();
});

const pdfAnswer = (bytes: Uint8Array) =>
  new HttpResponse(bytes.slice(), { headers: { 'Content-Type': 'application/pdf' } });

/** The answer of a submit of `form`: it is sent, and the list read again says so. */
function acceptSubmit(form: PdfForm, list: PdfForm[]) {
  server.use(
    http.post(`/api/v2/user/profile/fillable-pdf-form/${form.id}`, () => {
      const submitted = {
        ...form,
        submitted: {
          name: `${form.code}.pdf`,
          size: 1234,
          sha256: 'cd'.repeat(32),
          submittedAt: '2026-11-22T12:00:00Z',
        },
      };
      const after = list.map((f) => (f.id === form.id ? submitted : f));
      server.use(http.get('/api/v2/user/profile/fillable-pdf-forms', () => HttpResponse.json(after)));
      return HttpResponse.json({ message: 'Form submitted', form: submitted });
    }),
  );
}

function mockForms(list: PdfForm[]) {
  server.use(
    http.get('/api/v2/user/profile/fillable-pdf-forms', () => HttpResponse.json(list)),
    http.get('/api/v2/user/profile/fillable-pdf-form/3', () => pdfAnswer(template)),
    http.get('/api/v2/user/profile/fillable-pdf-form/4', () => pdfAnswer(mvrPdf)),
  );
}

async function openPage(list: PdfForm[], payload?: UserPayload) {
  mockForms(list);
  logInAs(1, { payload });
  const view = renderApp('/fillable-pdf-form');
  await screen.findByRole('heading', { level: 1, name: 'Forms' });
  return view;
}

/** The list opened, the Idaho release (the first of `list`) filled in and sent: the confirmation shown. */
async function sendIdaho(list: PdfForm[]) {
  acceptSubmit(list[0], list);
  const view = await openPage(list);
  const { user } = view;
  await user.click(await screen.findByRole('button', { name: /Fill in Idaho/ }));
  const fullName = await screen.findByRole('textbox', { name: /Full legal name/ });
  await user.clear(fullName);
  await user.type(fullName, 'Dana Q. Demo');
  await user.click(screen.getByRole('checkbox', { name: /I authorize/ }));
  await user.click(screen.getByRole('button', { name: 'Submit form' }));
  return { ...view, confirmation: await screen.findByRole('status') };
}

describe('/fillable-pdf-form', () => {
  it('lists each form with whether it is required and sent', async () => {
    await openPage([idaho(), mvr]);
    const first = await screen.findByRole('article', { name: 'Idaho background check release (sample)' });
    expect(within(first).getByText('Required')).toBeInTheDocument();
    expect(within(first).getByText('Not submitted yet')).toBeInTheDocument();
    expect(
      within(first).getByRole('button', { name: 'Fill in Idaho background check release (sample)' }),
    ).toBeVisible();
    const second = screen.getByRole('article', { name: 'Motor vehicle record request (sample)' });
    expect(within(second).getByText('Optional')).toBeInTheDocument();
    expect(within(second).getByText('Submitted on November 20, 2026')).toBeInTheDocument();
    expect(
      within(second).getByRole('button', { name: 'Download the submitted Motor vehicle record request (sample)' }),
    ).toBeVisible();
  });

  it('says when no form applies, with the way back to the profile', async () => {
    await openPage([]);
    expect(await screen.findByRole('heading', { name: 'No forms to fill in' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to your profile' })).toHaveAttribute('href', '/profile');
  });

  it('says when the list cannot be read, and tries again', async () => {
    let calls = 0;
    server.use(
      http.get('/api/v2/user/profile/fillable-pdf-forms', () =>
        ++calls === 1
          ? HttpResponse.json({ errorMessage: 'Database unavailable' }, { status: 404 })
          : HttpResponse.json([idaho()]),
      ),
    );
    logInAs(1);
    const { user } = renderApp('/fillable-pdf-form');
    expect(await screen.findByText('Error retrieving forms: Database unavailable')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Idaho background check release (sample)' })).toBeVisible();
  });

  it('checks the answers, submits the filled PDF, and shows the form as sent', async () => {
    // The part as the app hands it to fetch: jsdom's FormData does not survive Node's multipart encoding.
    let sent: File | null = null;
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      if (init?.body instanceof FormData) sent = init.body.get('file') as File;
      return realFetch(input, init);
    });
    const { user } = await openPage([idaho(), mvr]);
    server.use(
      http.post('/api/v2/user/profile/fillable-pdf-form/3', () => {
        const form = idaho({
          submitted: {
            name: 'idaho-release.pdf',
            size: 1234,
            sha256: 'cd'.repeat(32),
            submittedAt: '2026-11-22T12:00:00Z',
          },
        });
        // The list read again after the submit shows it sent.
        server.use(http.get('/api/v2/user/profile/fillable-pdf-forms', () => HttpResponse.json([form, mvr])));
        return HttpResponse.json({ message: 'Form submitted', form });
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Fill in Idaho background check release (sample)' }));
    const form = await screen.findByRole('form', { name: 'Idaho background check release (sample)' });
    expect(screen.getByRole('heading', { level: 2, name: 'Idaho background check release (sample)' })).toHaveFocus();
    // Ask once: the name the portal knows starts filled in, marked, and stays editable.
    const fullName = screen.getByRole('textbox', { name: /Full legal name/ });
    expect(fullName).toHaveValue('Dana Demo');
    expect(fullName).toHaveAccessibleDescription('Filled in from your profile: check it');
    await user.clear(fullName);
    expect(fullName).not.toHaveAccessibleDescription(/Filled in/);

    await user.click(within(form).getByRole('button', { name: 'Submit form' }));
    const summary = await screen.findByRole('alert');
    expect(within(summary).getByRole('link', { name: 'Full legal name' })).toBeInTheDocument();
    expect(
      within(summary).getByRole('link', { name: 'I authorize the release of my Idaho records.' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Full legal name/ })).toHaveAccessibleDescription(
      'Full legal name is required.',
    );

    await user.type(screen.getByRole('textbox', { name: /Full legal name/ }), 'Dana Q. Demo');
    await typeDate(user, dateField(screen, 'Date of birth'), '1990-04-07');
    // Codes read as words; a hyphen stays, as words have them.
    expect(
      within(screen.getByRole('radiogroup', { name: 'Copy delivery' })).getByLabelText('In-person'),
    ).toBeInTheDocument();
    await user.click(within(screen.getByRole('radiogroup', { name: 'Copy delivery' })).getByLabelText('Postal mail'));
    await user.click(screen.getByRole('checkbox', { name: /^I authorize the release of my Idaho records\./ }));
    await user.click(within(form).getByRole('button', { name: 'Submit form' }));

    // Said on the list, which takes the focus there: every form is sent, so the way on is Continue.
    const confirmation = await screen.findByRole('status');
    expect(confirmation).toHaveTextContent('Form submitted');
    expect(confirmation).toHaveTextContent('We have received Idaho background check release (sample).');
    expect(confirmation).toHaveTextContent('All your forms are sent.');
    await waitFor(() => expect(confirmation).toHaveFocus());
    expect(within(confirmation).getByRole('button', { name: 'Continue' })).toBeVisible();
    const card = await screen.findByRole('article', { name: 'Idaho background check release (sample)' });
    expect(within(card).getByText('Submitted on November 22, 2026')).toBeInTheDocument();

    expect(sent).not.toBeNull();
    const file = sent as unknown as File;
    expect(file.name).toBe('idaho-release.pdf');
    expect(file.type).toBe('application/pdf');
    const filled = (await PDFDocument.load(new Uint8Array(await file.arrayBuffer()))).getForm();
    expect(filled.getTextField('applicant_full_name').getText()).toBe('Dana Q. Demo');
    expect(filled.getTextField('date_of_birth').getText()).toBe('04/07/1990');
    expect(filled.getRadioGroup('copy_delivery').getSelected()).toBe('postal_mail');
    expect(filled.getCheckBox('authorization').isChecked()).toBe(true);
  });

  it('Fill in again starts from the answers sent last, but a consent is ticked again by the applicant', async () => {
    const previous = await PDFDocument.load(template.slice());
    const answers = previous.getForm();
    answers.getTextField('applicant_full_name').setText('Dana Q. Demo');
    answers.getTextField('date_of_birth').setText('04/07/1990');
    answers.getRadioGroup('copy_delivery').select('postal_mail');
    answers.getCheckBox('authorization').check();
    const copy = await previous.save();
    const sentIdaho = idaho({
      submitted: {
        name: 'idaho-release.pdf',
        size: copy.length,
        sha256: 'cd'.repeat(32),
        submittedAt: '2026-11-22T12:00:00Z',
      },
    });
    server.use(
      http.get(
        '/api/v2/user/profile/fillable-pdf-form/3/submitted',
        () => new HttpResponse(copy.slice(), { headers: { 'Content-Type': 'application/pdf' } }),
      ),
    );
    const { user } = await openPage([sentIdaho]);
    await user.click(await screen.findByRole('button', { name: /Fill in again: Idaho/ }));
    await screen.findByRole('form', { name: 'Idaho background check release (sample)' });
    expect(screen.getByRole('textbox', { name: /Full legal name/ })).toHaveValue('Dana Q. Demo');
    expect(dateOf(dateField(screen, 'Date of birth'))).toBe('1990-04-07');
    expect(
      within(screen.getByRole('radiogroup', { name: 'Copy delivery' })).getByLabelText('Postal mail'),
    ).toBeChecked();
    expect(screen.getByRole('checkbox', { name: /I authorize/ })).not.toBeChecked();
  });

  it('Fill in again starts from what the portal knows when the copy sent last cannot be read', async () => {
    server.use(
      http.get('/api/v2/user/profile/fillable-pdf-form/3/submitted', () =>
        HttpResponse.json({ errorMessage: 'You have not submitted this form yet.' }, { status: 404 }),
      ),
    );
    const sentIdaho = idaho({
      submitted: { name: 'idaho-release.pdf', size: 10, sha256: 'ef'.repeat(32), submittedAt: '2026-11-22T12:00:00Z' },
    });
    const { user } = await openPage([sentIdaho]);
    await user.click(await screen.findByRole('button', { name: /Fill in again: Idaho/ }));
    await screen.findByRole('form', { name: 'Idaho background check release (sample)' });
    expect(screen.getByRole('textbox', { name: /Full legal name/ })).toHaveValue('Dana Demo');
  });

  it('after a submit, offers the next form still to send, the required one first', async () => {
    const optional = idaho({ id: 5, code: 'extra', title: 'Extra consent (sample)', required: false });
    const mvrToDo: PdfForm = { ...mvr, required: true, submitted: null };
    const list = [idaho({ required: false }), optional, mvrToDo];
    const { user, confirmation } = await sendIdaho(list);
    expect(confirmation).toHaveTextContent('Still to fill in: Motor vehicle record request (sample) (required).');
    // A required form is left: no way on past it.
    expect(within(confirmation).queryByRole('button', { name: 'Continue' })).not.toBeInTheDocument();
    await user.click(
      within(confirmation).getByRole('button', { name: 'Continue to Motor vehicle record request (sample)' }),
    );
    expect(await screen.findByRole('form', { name: 'Motor vehicle record request (sample)' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('after a submit with only optional forms left, offers the next one and Continue beside it', async () => {
    const optional = idaho({ id: 5, code: 'extra', title: 'Extra consent (sample)', required: false });
    const list = [idaho(), optional];
    const { confirmation } = await sendIdaho(list);
    expect(confirmation).toHaveTextContent(
      'Extra consent (sample) is optional: fill it in if your employer asked you to, or continue.',
    );
    expect(within(confirmation).getByRole('button', { name: 'Continue to Extra consent (sample)' })).toBeVisible();
    expect(within(confirmation).getByRole('button', { name: 'Continue' })).toBeVisible();
  });

  it('Continue after the last form goes to the next thing left to do on the checklist', async () => {
    const list = [idaho()];
    server.use(
      http.get('/api/v2/user/subject/alias', () => HttpResponse.json({ payload: { aliases: [], saved: false } })),
    );
    const { user, router, confirmation } = await sendIdaho(list);
    await user.click(within(confirmation).getByRole('button', { name: 'Continue' }));
    // The default checklist: Other Names is the first page still to do.
    await waitFor(() => expect(router.state.location.pathname).toBe('/aliases'));
    await settled(router);
  });

  it('a dropdown of states is the app’s state picker: the names, "Choose a state", the PDF’s code sent', async () => {
    let sent: File | null = null;
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      if (init?.body instanceof FormData) sent = init.body.get('file') as File;
      return realFetch(input, init);
    });
    const mvrToDo: PdfForm = { ...mvr, submitted: null };
    acceptSubmit(mvrToDo, [mvrToDo]);
    const { user } = await openPage([mvrToDo]);
    await user.click(await screen.findByRole('button', { name: /Fill in Motor vehicle/ }));
    const state = await screen.findByRole('combobox', { name: /Issuing state/ });
    // The lookup's names in its order, as on Personal Information and Address History.
    expect(
      within(state)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose a state', 'California', 'Texas']);
    // Any other dropdown keeps its own choices.
    const purpose = screen.getByRole('combobox', { name: /Purpose/ });
    expect(
      within(purpose)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose', 'Employment', 'Volunteering']);
    await user.selectOptions(state, 'Texas');
    await user.click(screen.getByRole('button', { name: 'Submit form' }));
    await screen.findByRole('status');
    const filled = (await PDFDocument.load(new Uint8Array(await (sent as unknown as File).arrayBuffer()))).getForm();
    expect(filled.getDropdown('issuing_state').getSelected()).toEqual(['TX']);
  });

  it("shows the server's refusal in the editor and keeps what was typed", async () => {
    server.use(
      http.post('/api/v2/user/profile/fillable-pdf-form/3', () =>
        HttpResponse.json(
          {
            errorMessage: 'validation error',
            errorFields: [
              {
                field: 'file',
                message: 'This is not the Idaho background check release (sample) form: its fields differ.',
              },
            ],
          },
          { status: 422 },
        ),
      ),
    );
    const { user } = await openPage([idaho()]);
    await user.click(await screen.findByRole('button', { name: /Fill in Idaho/ }));
    await screen.findByRole('form', { name: 'Idaho background check release (sample)' });
    await user.clear(screen.getByRole('textbox', { name: /Full legal name/ }));
    await user.type(screen.getByRole('textbox', { name: /Full legal name/ }), 'Dana Q. Demo');
    await user.click(screen.getByRole('checkbox', { name: /I authorize/ }));
    await user.click(screen.getByRole('button', { name: 'Submit form' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The form could not be submitted');
    expect(alert).toHaveTextContent('This is not the Idaho background check release (sample) form: its fields differ.');
    expect(screen.getByRole('textbox', { name: /Full legal name/ })).toHaveValue('Dana Q. Demo');
    expect(screen.getByRole('checkbox', { name: /I authorize/ })).toBeChecked();
  });

  it('opens with what the portal knows filled in and marked: the name and the date of birth of the personal information', async () => {
    const payload = userPayload(1, {
      personalInformation: { firstName: 'Dana', middleName: 'Quinn', lastName: 'Demo', dob: '1990-04-12' },
    });
    const { user } = await openPage([idaho()], payload);
    await user.click(await screen.findByRole('button', { name: /Fill in Idaho/ }));
    await screen.findByRole('form', { name: 'Idaho background check release (sample)' });
    expect(screen.getByRole('textbox', { name: /Full legal name/ })).toHaveValue('Dana Quinn Demo');
    const birth = dateField(screen, 'Date of birth');
    expect(dateOf(birth)).toBe('1990-04-12');
    expect(birth).toHaveTextContent('Filled in from your profile: check it');
    // A consent is never given for the applicant.
    expect(screen.getByRole('checkbox', { name: /I authorize/ })).not.toBeChecked();
  });
});
