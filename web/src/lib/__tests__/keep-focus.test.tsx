import { fireEvent, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { describe, expect, it } from 'vitest';
import { useKeepFocusOnPress } from '../keep-focus';

function Form() {
  const ref = useRef<HTMLFormElement>(null);
  useKeepFocusOnPress(ref);
  return (
    <form ref={ref}>
      <label>
        Name <input />
      </label>
      <button type="submit">
        <span>Save</span>
      </button>
      <button type="button" aria-haspopup="dialog">
        Sign
      </button>
      <button type="button" disabled>
        Off
      </button>
    </form>
  );
}

describe('useKeepFocusOnPress', () => {
  // fireEvent returns false when a listener prevented the default (the focus move).
  it('keeps the focus in the field when a button (or its content) is pressed', () => {
    render(<Form />);
    expect(fireEvent.mouseDown(screen.getByText('Save'))).toBe(false);
    expect(fireEvent.mouseDown(screen.getByRole('button', { name: 'Save' }))).toBe(false);
  });

  it('leaves fields, dialog openers and disabled buttons alone', () => {
    render(<Form />);
    expect(fireEvent.mouseDown(screen.getByLabelText('Name'))).toBe(true);
    expect(fireEvent.mouseDown(screen.getByRole('button', { name: 'Sign' }))).toBe(true);
    expect(fireEvent.mouseDown(screen.getByRole('button', { name: 'Off' }))).toBe(true);
  });
});
