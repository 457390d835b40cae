import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useFieldArray } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { useAppForm } from '../form';
import { shownError } from '../shown-error';

const schema = z.object({
  rows: z.array(z.object({ name: z.string().check(z.minLength(1, 'Name is required.')) })),
});
type Values = z.infer<typeof schema>;

/** A list form as the data pages have them: rows of one required field, Add and Save. */
function ListForm() {
  const form = useAppForm<Values>(schema, { defaultValues: { rows: [{ name: '' }] } });
  const rows = useFieldArray({ control: form.control, name: 'rows' });
  return (
    <form aria-label="List" noValidate onSubmit={form.handleSubmit(() => undefined)}>
      {rows.fields.map((row, i) => {
        const error = shownError(form, `rows.${i}.name`);
        return (
          <div key={row.id}>
            <label htmlFor={`name-${i}`}>Name {i + 1}</label>
            <input id={`name-${i}`} {...form.register(`rows.${i}.name`)} />
            {error ? <p>{`Row ${i + 1}: ${error}`}</p> : null}
          </div>
        );
      })}
      <button type="button" onClick={() => rows.append({ name: '' })}>
        Add
      </button>
      <button type="submit">Save</button>
      <button type="button" onClick={() => form.setError('rows.0.name', { type: 'server', message: 'Taken.' })}>
        Server says
      </button>
    </form>
  );
}

describe('shownError', () => {
  it('keeps untouched rows quiet when a row is added, speaks once a field is left, and after a submit', async () => {
    const user = userEvent.setup();
    render(<ListForm />);
    // Add checks the whole list; the new row takes the focus.
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.getByLabelText('Name 2')).toHaveFocus();
    expect(screen.queryByText(/is required/)).not.toBeInTheDocument();

    await user.tab();
    expect(await screen.findByText('Row 2: Name is required.')).toBeInTheDocument();
    expect(screen.queryByText('Row 1: Name is required.')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Row 1: Name is required.')).toBeInTheDocument();
  });

  it("shows the server's message on a field nobody touched", async () => {
    const user = userEvent.setup();
    render(<ListForm />);
    await user.click(screen.getByRole('button', { name: 'Server says' }));
    expect(await screen.findByText('Row 1: Taken.')).toBeInTheDocument();
  });
});
