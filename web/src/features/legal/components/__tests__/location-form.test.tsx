import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { createQueryClient } from '@/lib/query-client';
import type { County } from '@/lib/lookups';
import { lookups } from '@/testing/fixtures';
import { LocationForm, type LocationAnswer } from '../location-form';

// California has a county notice (San Francisco); Texas has none.
const sanFrancisco = (lookups.counties as County[]).filter((c) => c.id === 6075);
const countiesIn = (state: string) => (state === 'US-CA' ? sanFrancisco : []);

function renderForm(onSubmit: (l: LocationAnswer) => Promise<unknown>, askEmployment = false) {
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <LocationForm countiesIn={countiesIn} askEmployment={askEmployment} onSubmit={onSubmit} />
    </QueryClientProvider>,
  );
  return user;
}

const state = () => screen.getByRole('combobox', { name: 'State' });
const county = () => screen.getByRole('combobox', { name: /^County/ });
const continueButton = () => screen.getByRole('button', { name: 'Continue' });
const place = (state: string, county = 0) => ({ nonUs: false, state, county });

describe('the residency question', () => {
  it('asks for a state, said after the field is left, and sends the one chosen', async () => {
    const onSubmit = vi.fn(() => Promise.resolve());
    const user = renderForm(onSubmit);
    expect(screen.getByRole('heading', { level: 3, name: 'Where do you live?' })).toBeInTheDocument();
    await screen.findAllByRole('option', { name: 'Texas' });
    expect(continueButton()).toBeDisabled();
    expect(screen.queryByText(/Choose your state, or tick/)).not.toBeInTheDocument();
    await user.click(state());
    await user.tab();
    expect(await screen.findByText('Choose your state, or tick “I live outside the United States”.')).toBeVisible();
    await user.selectOptions(state(), 'Texas');
    expect(screen.queryByText(/Choose your state, or tick/)).not.toBeInTheDocument();
    await user.click(continueButton());
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ residency: place('US-TX') }));
  });

  it('living outside the United States needs no state, and clears the message about it', async () => {
    const onSubmit = vi.fn(() => Promise.resolve());
    const user = renderForm(onSubmit);
    await screen.findAllByRole('option', { name: 'Texas' });
    await user.selectOptions(state(), 'California');
    await user.click(screen.getByLabelText('I live outside the United States'));
    expect(state()).toBeDisabled();
    expect(screen.queryByRole('combobox', { name: /^County/ })).not.toBeInTheDocument();
    await user.click(continueButton());
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ residency: { nonUs: true, state: '', county: 0 } }));
  });

  it("puts the server's refusal on the field it names", async () => {
    const refusal = new ApiError(422, {
      errorMessage: 'validation error',
      errorFields: [
        { field: 'location.residency.county', message: 'Choose a county in the state you chose.', code: 'invalid' },
      ],
    });
    const user = renderForm(() => Promise.reject(refusal));
    await screen.findAllByRole('option', { name: 'Texas' });
    await user.selectOptions(state(), 'California');
    await user.selectOptions(county(), 'San Francisco County');
    await user.click(continueButton());
    expect(await screen.findAllByText('Choose a county in the state you chose.')).not.toHaveLength(0);
    expect(county()).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('link', { name: 'County' })).toBeVisible();
  });
});

describe('the county question', () => {
  it.each([
    { stateName: 'California', shown: true },
    { stateName: 'Texas', shown: false },
  ])('in $stateName is asked: $shown', async ({ stateName, shown }) => {
    const user = renderForm(() => Promise.resolve());
    await screen.findAllByRole('option', { name: 'Texas' });
    expect(screen.queryByRole('combobox', { name: /^County/ })).not.toBeInTheDocument();
    await user.selectOptions(state(), stateName);
    expect(screen.queryByRole('combobox', { name: /^County/ }) !== null).toBe(shown);
  });

  it.each([
    { choice: 'San Francisco County', want: 6075 },
    { choice: 'Another county', want: 0 },
  ])('sends $choice as county $want', async ({ choice, want }) => {
    const onSubmit = vi.fn(() => Promise.resolve());
    const user = renderForm(onSubmit);
    await screen.findAllByRole('option', { name: 'Texas' });
    await user.selectOptions(state(), 'California');
    expect(county()).toHaveAccessibleDescription(/Only counties with their own notices are listed/);
    await user.selectOptions(county(), choice);
    await user.click(continueButton());
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ residency: place('US-CA', want) }));
  });

  it('must be answered once asked, and says how', async () => {
    const onSubmit = vi.fn(() => Promise.resolve());
    const user = renderForm(onSubmit);
    await screen.findAllByRole('option', { name: 'Texas' });
    await user.selectOptions(state(), 'California');
    await user.click(continueButton());
    const message = 'Choose your county, or “Another county” if yours is not listed.';
    expect(await screen.findAllByText(message)).not.toHaveLength(0);
    expect(screen.getByRole('alert')).toHaveTextContent('County');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('is asked again when the state changes', async () => {
    const onSubmit = vi.fn(() => Promise.resolve());
    const user = renderForm(onSubmit);
    await screen.findAllByRole('option', { name: 'Texas' });
    await user.selectOptions(state(), 'California');
    await user.selectOptions(county(), 'San Francisco County');
    await user.selectOptions(state(), 'Texas');
    await user.click(continueButton());
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ residency: place('US-TX') }));
  });
});

describe('the place of work, when the employer did not say', () => {
  it('is not asked when the employer said', async () => {
    renderForm(() => Promise.resolve(), false);
    await screen.findAllByRole('option', { name: 'Texas' });
    expect(screen.queryByRole('group', { name: 'Where will you work?' })).not.toBeInTheDocument();
  });

  it('may stay empty', async () => {
    const onSubmit = vi.fn(() => Promise.resolve());
    const user = renderForm(onSubmit, true);
    await screen.findAllByRole('option', { name: 'Texas' });
    expect(screen.getByRole('group', { name: 'Where will you work?' })).toBeVisible();
    await user.selectOptions(state(), 'Texas');
    await user.click(continueButton());
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ residency: place('US-TX') }));
  });

  it('asks the county of work where a notice depends on it, and sends it', async () => {
    const onSubmit = vi.fn(() => Promise.resolve());
    const user = renderForm(onSubmit, true);
    await screen.findAllByRole('option', { name: 'Texas' });
    await user.selectOptions(state(), 'Texas');
    await user.selectOptions(screen.getByRole('combobox', { name: 'State where you will work' }), 'California');
    await user.selectOptions(
      screen.getByRole('combobox', { name: /^County where you will work/ }),
      'San Francisco County',
    );
    await user.click(continueButton());
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({ residency: place('US-TX'), employment: place('US-CA', 6075) }),
    );
  });

  it('outside the United States is an answer', async () => {
    const onSubmit = vi.fn(() => Promise.resolve());
    const user = renderForm(onSubmit, true);
    await screen.findAllByRole('option', { name: 'Texas' });
    await user.selectOptions(state(), 'California');
    await user.selectOptions(county(), 'Another county');
    await user.click(screen.getByLabelText('I will work outside the United States'));
    await user.click(continueButton());
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({
        residency: place('US-CA'),
        employment: { nonUs: true, state: '', county: 0 },
      }),
    );
  });
});
