import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { createQueryClient } from '@/lib/query-client';
import { ResidencyForm, type Residency } from '../residency-form';

function renderForm(onSubmit: (r: Residency) => Promise<unknown>) {
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ResidencyForm onSubmit={onSubmit} />
    </QueryClientProvider>,
  );
  return user;
}

const state = () => screen.getByRole('combobox', { name: 'State' });
const continueButton = () => screen.getByRole('button', { name: 'Continue' });

describe('the residency question', () => {
  it('asks for a state, said after the field is left, and sends the one chosen', async () => {
    const onSubmit = vi.fn(() => Promise.resolve());
    const user = renderForm(onSubmit);
    expect(screen.getByRole('heading', { level: 3, name: 'Where do you live?' })).toBeInTheDocument();
    await screen.findByRole('option', { name: 'Texas' });
    expect(continueButton()).toBeDisabled();
    expect(screen.queryByText(/Choose your state, or tick/)).not.toBeInTheDocument();
    await user.click(state());
    await user.tab();
    expect(await screen.findByText('Choose your state, or tick “I live outside the United States”.')).toBeVisible();
    await user.selectOptions(state(), 'Texas');
    expect(screen.queryByText(/Choose your state, or tick/)).not.toBeInTheDocument();
    await user.click(continueButton());
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ nonUs: false, state: 'US-TX' }));
  });

  it('living outside the United States needs no state, and clears the message about it', async () => {
    const onSubmit = vi.fn(() => Promise.resolve());
    const user = renderForm(onSubmit);
    await screen.findByRole('option', { name: 'Texas' });
    await user.selectOptions(state(), 'Texas');
    await user.click(screen.getByLabelText('I live outside the United States'));
    expect(state()).toBeDisabled();
    await user.click(continueButton());
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ nonUs: true, state: '' }));
  });

  it("puts the server's refusal on the field it names", async () => {
    const refusal = new ApiError(422, {
      errorMessage: 'validation error',
      errorFields: [{ field: 'state', message: 'Choose a state from the list.', code: 'invalid' }],
    });
    const user = renderForm(() => Promise.reject(refusal));
    await screen.findByRole('option', { name: 'Texas' });
    await user.selectOptions(state(), 'Texas');
    await user.click(continueButton());
    expect(await screen.findByText('Choose a state from the list.')).toBeVisible();
    expect(state()).toHaveAttribute('aria-invalid', 'true');
    expect(state()).toHaveFocus();
  });
});
