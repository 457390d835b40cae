import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { DateField } from '../date-field';
import { PasswordField } from '../password-field';
import { Select } from '../select';
import { SsnField } from '../ssn-field';
import { TextField } from '../text-field';

describe('required marking', () => {
  it('marks every field required unless it says (optional), is read-only or is told otherwise', () => {
    render(
      <>
        <TextField label="Last name" />
        <TextField label="Middle name" optional />
        <TextField label="Your link" readOnly />
        <TextField label="Search" required={false} />
        <Select label="State">
          <option>Idaho</option>
        </Select>
        <Select label="Suffix" optional>
          <option>Jr.</option>
        </Select>
        <PasswordField label="Password" />
        <DateField label="Date of birth" />
        <DateField label="Moved out" optional />
      </>,
    );
    expect(screen.getByLabelText('Last name')).toHaveAttribute('aria-required', 'true');
    expect(screen.getByLabelText(/Middle name/)).not.toHaveAttribute('aria-required');
    expect(screen.getByLabelText('Your link')).not.toHaveAttribute('aria-required');
    expect(screen.getByLabelText('Search')).not.toHaveAttribute('aria-required');
    expect(screen.getByLabelText('State')).toHaveAttribute('aria-required', 'true');
    expect(screen.getByLabelText(/Suffix/)).not.toHaveAttribute('aria-required');
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-required', 'true');
    const dob = screen.getByRole('group', { name: /Date of birth/ });
    for (const part of within(dob).getAllByRole('textbox')) expect(part).toHaveAttribute('aria-required', 'true');
    const out = screen.getByRole('group', { name: /Moved out/ });
    for (const part of within(out).getAllByRole('textbox')) expect(part).not.toHaveAttribute('aria-required');
  });
});

describe('TextField', () => {
  it('ties its label, hint and error to the input, error first, and marks it invalid', () => {
    render(
      <TextField
        label="First name"
        hint="As on your ID."
        error="First name is required"
        required
        aria-describedby="extra"
      />,
    );
    const input = screen.getByLabelText(/First name/);
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAttribute('aria-required', 'true');
    expect(input).toHaveAccessibleDescription('First name is required As on your ID.');
    expect(input.getAttribute('aria-describedby')?.split(' ')).toHaveLength(3);
    // GOV.UK: a required field is unmarked (no asterisk); only optional ones say so.
    expect(screen.getByText('First name', { selector: 'label' })).toHaveTextContent(/^First name$/);
  });

  it('says "(optional)" after the label of an optional field, in its accessible name too', () => {
    render(
      <>
        <TextField label="Middle name" optional />
        <Select label="Suffix" optional>
          <option value="JR">Jr.</option>
        </Select>
        <PasswordField label="Old password" optional />
      </>,
    );
    expect(screen.getByRole('textbox', { name: 'Middle name (optional)' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Suffix (optional)' })).toBeInTheDocument();
    expect(screen.getByLabelText('Old password (optional)')).toHaveAttribute('type', 'password');
  });

  it('is neither invalid nor described when it has no error and no hint', () => {
    render(<TextField label="Middle name" />);
    const input = screen.getByLabelText('Middle name');
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(input).not.toHaveAttribute('aria-describedby');
  });

  it("works with react-hook-form's register (the ref reaches the input)", async () => {
    let read: () => string = () => '';
    function Form() {
      const { register, getValues } = useForm({ defaultValues: { city: 'Austin' } });
      read = () => getValues('city');
      return <TextField label="City" {...register('city')} />;
    }
    render(<Form />);
    const input = screen.getByLabelText('City');
    expect(input).toHaveValue('Austin');
    await userEvent.clear(input);
    await userEvent.type(input, 'Dallas');
    expect(read()).toBe('Dallas');
  });
});

describe('PasswordField and SsnField', () => {
  it('hides the password until Show is pressed, and hides it again; the toggle’s name follows its state', async () => {
    render(<PasswordField label="Password" defaultValue="secret words" />);
    const input = screen.getByLabelText('Password');
    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect(input).toHaveAttribute('type', 'password');
    expect(toggle).toHaveTextContent('Show');
    // A name that changes says the state: aria-pressed on top would read "Hide password, pressed".
    expect(toggle).not.toHaveAttribute('aria-pressed');
    await userEvent.click(toggle);
    expect(input).toHaveAttribute('type', 'text');
    expect(toggle).toHaveAccessibleName('Hide password');
    expect(toggle).toHaveTextContent('Hide');
    await userEvent.click(toggle);
    expect(input).toHaveAttribute('type', 'password');
    expect(toggle).toHaveAccessibleName('Show password');
  });

  it('masks the SSN, asks for digits, keeps it as typed and shows it on request', async () => {
    render(<SsnField label="Social Security number" />);
    const input = screen.getByLabelText('Social Security number');
    expect(input).toHaveAttribute('type', 'password');
    expect(input).toHaveAttribute('inputmode', 'numeric');
    expect(input).toHaveAttribute('autocomplete', 'off');
    await userEvent.type(input, '123-45-6789');
    expect(input).toHaveValue('123-45-6789');
    await userEvent.click(screen.getByRole('button', { name: 'Show Social Security number' }));
    expect(input).toHaveAttribute('type', 'text');
    expect(screen.getByRole('button', { name: 'Hide Social Security number' })).toBeInTheDocument();
  });

  it('disables the toggle with a disabled field', () => {
    render(<SsnField label="SSN" disabled />);
    expect(screen.getByRole('button', { name: 'Show Social Security number' })).toBeDisabled();
  });
});

describe('Select and DateField', () => {
  it('offers the placeholder as an empty first choice and shows its error like a text field', () => {
    render(
      <Select label="State" placeholder="Choose a state" error="Choose the state that issued it.">
        <option value="TX">Texas</option>
      </Select>,
    );
    const select = screen.getByLabelText('State');
    expect(select).toHaveValue('');
    expect(screen.getByRole('option', { name: 'Choose a state' })).toHaveValue('');
    expect(select).toHaveAttribute('aria-invalid', 'true');
    expect(select).toHaveAccessibleDescription('Choose the state that issued it.');
  });
});

describe('DateField', () => {
  it('asks for a date in day, month and year boxes under one legend, with the example as its hint', () => {
    render(<DateField label="Date of birth" autoComplete="bday" required />);
    const date = screen.getByRole('group', { name: /^Date of birth/ });
    expect(date).toHaveAccessibleDescription('For example, 27 3 1990');
    const boxes = ['Day', 'Month', 'Year'].map((name) => within(date).getByLabelText(name));
    expect(boxes.map((b) => b.getAttribute('autocomplete'))).toEqual(['bday-day', 'bday-month', 'bday-year']);
    expect(boxes.map((b) => b.getAttribute('inputmode'))).toEqual(['numeric', 'numeric', 'numeric']);
    expect(boxes.map((b) => b.getAttribute('maxlength'))).toEqual(['2', '2', '4']);
  });

  it('asks for month and year only for a history period', () => {
    render(<DateField kind="month" label="From" />);
    const date = screen.getByRole('group', { name: 'From' });
    expect(within(date).queryByLabelText('Day')).toBeNull();
    expect(date).toHaveAccessibleDescription('For example, 3 2019');
  });

  it('marks only the box at fault, and the error is read with the legend', () => {
    render(<DateField label="Date of birth" defaultValue="1990--27" error="Date of birth must include a month." />);
    const date = screen.getByRole('group', { name: 'Date of birth' });
    expect(date).toHaveAccessibleDescription('Date of birth must include a month. For example, 27 3 1990');
    expect(within(date).getByLabelText('Month')).toHaveAttribute('aria-invalid', 'true');
    expect(within(date).getByLabelText('Day')).not.toHaveAttribute('aria-invalid');
    expect(within(date).getByLabelText('Day')).toHaveValue('27');
  });

  it('marks every box when the whole date is wrong (in the future)', () => {
    render(<DateField label="Date of birth" defaultValue="2090-01-01" error="Date of birth must be in the past." />);
    for (const name of ['Day', 'Month', 'Year'])
      expect(screen.getByLabelText(name)).toHaveAttribute('aria-invalid', 'true');
  });

  it("keeps react-hook-form's value as yyyy-mm-dd, shows its defaults and checks once focus leaves the boxes", async () => {
    const user = userEvent.setup();
    let read: () => { dob: string } = () => ({ dob: '' });
    let touched = () => false;
    function Form() {
      const { register, getValues, getFieldState, formState } = useForm({ defaultValues: { dob: '1990-03-27' } });
      read = getValues;
      touched = () => getFieldState('dob', formState).isTouched;
      return (
        <form>
          <DateField label="Date of birth" {...register('dob')} />
          <button type="button">Next</button>
        </form>
      );
    }
    render(<Form />);
    expect(screen.getByLabelText('Day')).toHaveValue('27');
    expect(screen.getByLabelText('Month')).toHaveValue('03');
    await user.clear(screen.getByLabelText('Day'));
    await user.type(screen.getByLabelText('Day'), '5');
    await user.clear(screen.getByLabelText('Month'));
    await user.type(screen.getByLabelText('Month'), '4');
    expect(read().dob).toBe('1990-04-05');
    expect(screen.getByLabelText('Month')).toHaveValue('4');
    expect(touched()).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(touched()).toBe(true);
    await user.clear(screen.getByLabelText('Year'));
    expect(read().dob).toBe('-04-05');
  });
});
