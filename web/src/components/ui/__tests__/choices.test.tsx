import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { Checkbox } from '../checkbox';
import { Fieldset } from '../fieldset';
import { RadioGroup } from '../radio-group';

describe('Checkbox', () => {
  it('is checked by clicking its label and reads its error with it', async () => {
    render(<Checkbox label="I agree" error="Tick the box to continue." />);
    const box = screen.getByRole('checkbox', { name: 'I agree' });
    expect(box).toHaveAccessibleDescription('Tick the box to continue.');
    expect(box).toHaveAttribute('aria-invalid', 'true');
    await userEvent.click(screen.getByText('I agree'));
    expect(box).toBeChecked();
  });
});

describe('RadioGroup', () => {
  it('names the group by its legend and registers every option with react-hook-form', async () => {
    let read: () => string = () => '';
    function Form() {
      const { register, getValues } = useForm({ defaultValues: { notify: 'email' } });
      read = () => getValues('notify');
      return (
        <RadioGroup
          legend="Notify me by"
          options={[
            { value: 'email', label: 'E-mail' },
            { value: 'sms', label: 'Text message' },
          ]}
          {...register('notify')}
        />
      );
    }
    render(<Form />);
    const group = screen.getByRole('radiogroup', { name: 'Notify me by' });
    expect(group).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'E-mail' })).toBeChecked();
    await userEvent.click(screen.getByRole('radio', { name: 'Text message' }));
    expect(read()).toBe('sms');
  });

  it('describes the group with its error', () => {
    render(<RadioGroup legend="Notify me by" name="n" error="Choose one." options={[{ value: 'a', label: 'A' }]} />);
    expect(screen.getByRole('radiogroup', { name: 'Notify me by' })).toHaveAccessibleDescription('Choose one.');
  });

  it('says "(optional)" after the legend of an optional group, and nothing after a required one', () => {
    render(
      <>
        <RadioGroup legend="Gender" name="g" optional options={[{ value: 'f', label: 'Female' }]} />
        <RadioGroup legend="Notify me by" name="n" required options={[{ value: 'a', label: 'A' }]} />
      </>,
    );
    expect(screen.getByRole('radiogroup', { name: 'Gender (optional)' })).toBeInTheDocument();
    expect(screen.getByRole('radiogroup', { name: 'Notify me by' })).toHaveAttribute('aria-required', 'true');
  });
});

describe('Fieldset', () => {
  it('names its group by the legend', () => {
    render(
      <Fieldset legend="Your name">
        <input aria-label="First name" />
      </Fieldset>,
    );
    expect(screen.getByRole('group', { name: 'Your name' })).toContainElement(screen.getByLabelText('First name'));
  });
});
