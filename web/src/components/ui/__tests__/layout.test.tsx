import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Button } from '../button';
import { Card } from '../card';
import { Dialog, DialogActions, DialogClose } from '../dialog';
import { PageHeader } from '../page-header';
import { Stepper } from '../stepper';

describe('Stepper', () => {
  const steps = [
    { id: 'a', title: 'Welcome', status: 'complete' as const },
    { id: 'b', title: 'Review Legal Notices', status: 'current' as const },
    { id: 'c', title: 'Personal Information', status: 'pending' as const },
  ];

  it('lists every step for screen readers with its state, the current one marked', () => {
    render(<Stepper steps={steps} label="Setup steps" />);
    const items = screen.getAllByRole('listitem');
    expect(screen.getByRole('list', { name: 'Setup steps' })).toBeInTheDocument();
    expect(items[0]).toHaveTextContent('Welcome (complete)');
    expect(items[1]).toHaveAttribute('aria-current', 'step');
    expect(items[1]).toHaveTextContent('Review Legal Notices (current step)');
    expect(items[2]).toHaveTextContent('3Personal Information');
  });

  it('has the one-line form for narrow screens, hidden from screen readers (the list says it)', () => {
    render(<Stepper steps={steps} label="Setup steps" />);
    const compact = screen.getByTestId('stepper-compact');
    expect(compact).toHaveTextContent('Step 2 of 3: Review Legal Notices');
    expect(compact).toHaveAttribute('aria-hidden', 'true');
  });

  it('marks the step shown when it is a finished one opened again (currentId)', () => {
    render(<Stepper steps={steps} label="Setup steps" currentId="a" />);
    const items = screen.getAllByRole('listitem');
    expect(items[0]).toHaveAttribute('aria-current', 'step');
    expect(items[0]).toHaveTextContent('Welcome (complete)');
    expect(items[1]).not.toHaveAttribute('aria-current');
    expect(screen.getByTestId('stepper-compact')).toHaveTextContent('Step 1 of 3: Welcome');
  });

  it('says which step needs attention and why', () => {
    render(<Stepper steps={[{ id: 'a', title: 'Login', status: 'error', error: 'Log in again.' }]} label="Steps" />);
    expect(screen.getByRole('listitem')).toHaveTextContent('Login (needs attention)Log in again.');
  });
});

describe('Dialog', () => {
  function Demo() {
    const [open, setOpen] = useState(false);
    const opener = useRef<HTMLButtonElement>(null);
    return (
      <>
        <Button ref={opener} onClick={() => setOpen(true)}>
          Open
        </Button>
        <Dialog
          open={open}
          onOpenChange={setOpen}
          returnFocusTo={opener}
          title="Reset Password"
          description="We e-mail a link."
        >
          <DialogActions>
            <DialogClose asChild>
              <Button variant="link">Cancel</Button>
            </DialogClose>
          </DialogActions>
        </Dialog>
      </>
    );
  }

  it('is a named, described modal dialog that returns focus to its opener when closed', async () => {
    render(<Demo />);
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    const dialog = screen.getByRole('dialog', { name: 'Reset Password' });
    expect(dialog).toHaveAccessibleDescription('We e-mail a link.');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open' })).toHaveFocus();
  });

  it('has a Close button at the top, beside its title, that closes it', async () => {
    render(<Demo />);
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    const dialog = screen.getByRole('dialog', { name: 'Reset Password' });
    const close = screen.getByRole('button', { name: 'Close' });
    // Before the dialog's content and its own buttons: the first control after the title.
    const buttons = Array.from(dialog.querySelectorAll('button'));
    expect(buttons[0]).toBe(close);
    await userEvent.click(close);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open' })).toHaveFocus();
  });
});

describe('PageHeader and Card', () => {
  it('gives the page its one h1 with a description, inside a card', () => {
    render(
      <Card aria-label="Task">
        <PageHeader title="Personal Information" description="Tell us who you are." eyebrow="Step 5" />
      </Card>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Personal Information' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Task' })).toHaveTextContent(
      'Step 5Personal InformationTell us who you are.',
    );
  });

  it('shows a sample header as an h2, leaving the page its one h1', () => {
    render(<PageHeader title="Page title" headingLevel={2} />);
    expect(screen.getByRole('heading', { level: 2, name: 'Page title' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { level: 1 })).not.toBeInTheDocument();
  });
});
