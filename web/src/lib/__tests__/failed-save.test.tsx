import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ErrorSummary } from '@/components/ui/alert';
import { TextField } from '@/components/ui/text-field';
import { ApiError } from '../api-client';
import { useAppForm } from '../form';
import { errorAt, useFailedSave, type FailedSaveOptions, type ServerErrorOptions } from '../failed-save';

const schema = z.object({
  firstName: z.string().check(z.minLength(1, 'Enter your first name')),
  email: z.string().check(z.minLength(1, 'Enter your e-mail address')),
});
type Values = z.infer<typeof schema>;

const refusal = (errorFields: { field: string; message: string }[]) =>
  new ApiError(422, { errorMessage: 'validation error', errorFields });

type DemoProps = {
  /** What the server answers to a save. */
  answer: unknown;
  serverOptions?: ServerErrorOptions;
  options?: FailedSaveOptions;
  defaults?: Values;
};

/** A form as every form of the app uses the hook: first name above e-mail. */
function Demo({ answer, serverOptions, options, defaults = { firstName: '', email: '' } }: DemoProps) {
  const form = useAppForm<Values>(schema, { defaultValues: defaults, shouldFocusError: false });
  const failed = useFailedSave(form, options);
  const errors = form.formState.errors;
  const onSubmit = form.handleSubmit(() => {
    failed.clear();
    failed.onServerError(answer, serverOptions);
  }, failed.onInvalid);
  return (
    <form ref={failed.formRef} aria-label="Demo" noValidate onSubmit={(event) => void onSubmit(event)}>
      <ErrorSummary key={failed.attempt} {...failed.summary} />
      <TextField label="First name" error={errorAt(errors, 'firstName')} {...form.register('firstName')} />
      <TextField label="E-mail address" error={errorAt(errors, 'email')} {...form.register('email')} />
      <button type="submit">Save</button>
    </form>
  );
}

const filled: Values = { firstName: 'Riley', email: 'riley@example.com' };
/** The summary's messages, without the line over its links. */
const messages = (summary: HTMLElement) =>
  [...summary.querySelectorAll('p')]
    .map((p) => p.textContent)
    .filter((text) => !/^There (is a problem|are \d+ problems)$/.test(text ?? ''));
const links = (summary: HTMLElement) =>
  within(summary)
    .queryAllByRole('link')
    .map((a) => a.textContent);

describe('useFailedSave', () => {
  it("after a submit the client's rules refused, focuses a summary of the fields in page order, again at each attempt", async () => {
    const user = userEvent.setup();
    render(<Demo answer={null} />);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const summary = await screen.findByRole('alert');
    await waitFor(() => expect(summary).toHaveFocus());
    expect(links(summary)).toEqual(['First name', 'E-mail address']);

    // A field leaves the summary once its message is gone.
    await user.type(screen.getByLabelText('First name'), 'Riley');
    await waitFor(() => expect(links(summary)).toEqual(['E-mail address']));

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveFocus());
  });

  it.each<{ name: string; answer: unknown; serverOptions?: ServerErrorOptions; text: string[]; fields: string[] }>([
    {
      name: 'the messages for no field of the form, headed by what failed',
      answer: refusal([{ field: 'company', message: 'The company no longer accepts changes.' }]),
      serverOptions: { failure: 'Error saving Profile' },
      text: ['Error saving Profile: The company no longer accepts changes.'],
      fields: [],
    },
    {
      name: 'what failed, alone above the fields when the server named only fields',
      answer: refusal([{ field: 'email', message: 'This e-mail address cannot receive mail.' }]),
      serverOptions: { failure: 'Error saving Profile' },
      text: ['Error saving Profile'],
      fields: ['E-mail address'],
    },
    {
      name: "the server's messages as they are, without a failure to head them",
      answer: refusal([{ field: 'company', message: 'The company no longer accepts changes.' }]),
      text: ['The company no longer accepts changes.'],
      fields: [],
    },
    {
      name: 'only the fields, when the form shows the messages elsewhere',
      answer: refusal([
        { field: 'email', message: 'This e-mail address cannot receive mail.' },
        { field: 'company', message: 'The company no longer accepts changes.' },
      ]),
      serverOptions: { fieldsOnly: true },
      text: [],
      fields: ['E-mail address'],
    },
  ])('after a save the server refused, the summary shows $name', async ({ answer, serverOptions, text, fields }) => {
    const user = userEvent.setup();
    render(<Demo answer={answer} serverOptions={serverOptions} defaults={filled} />);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const summary = await screen.findByRole('alert');
    expect(messages(summary)).toEqual(text);
    expect(links(summary)).toEqual(fields);
  });

  it('focuses the first field the server named, in page order, and the summary only when it named none', async () => {
    const user = userEvent.setup();
    const { unmount } = render(
      <Demo
        answer={refusal([
          { field: 'email', message: 'This e-mail address cannot receive mail.' },
          { field: 'firstName', message: 'The first name may not contain digits.' },
        ])}
        defaults={filled}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByLabelText('First name')).toHaveFocus());
    expect(links(screen.getByRole('alert'))).toEqual(['First name', 'E-mail address']);
    unmount();

    render(<Demo answer={new TypeError('Failed to fetch')} defaults={filled} />);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveFocus());
  });

  it('links each field by the words labelOf gives it', async () => {
    const user = userEvent.setup();
    render(<Demo answer={null} options={{ labelOf: (f) => `Applicant: ${f.label}` }} />);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(links(await screen.findByRole('alert'))).toEqual(['Applicant: First name', 'Applicant: E-mail address']);
  });
});
