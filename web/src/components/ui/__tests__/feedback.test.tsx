import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Alert, ErrorSummary } from '../alert';
import { Button } from '../button';
import { EmptyState } from '../empty-state';
import { Skeleton } from '../skeleton';

describe('Button', () => {
  it('is a plain button by default, not a submit', () => {
    render(<Button>Next</Button>);
    expect(screen.getByRole('button', { name: 'Next' })).toHaveAttribute('type', 'button');
  });

  it('while loading is busy and cannot be pressed again', async () => {
    const onClick = vi.fn();
    render(
      <Button loading onClick={onClick}>
        Saving…
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Saving…' });
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(button).toBeDisabled();
    await userEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });
});

describe('Alert', () => {
  it('announces errors and warnings as alerts, information and success as status', () => {
    render(
      <>
        <Alert>
          <p>Broken</p>
        </Alert>
        <Alert tone="success">
          <p>Saved</p>
        </Alert>
      </>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Broken');
    expect(screen.getByRole('status')).toHaveTextContent('Saved');
  });
});

describe('ErrorSummary', () => {
  it('takes focus when shown after a failed submit and each link focuses its field', async () => {
    render(
      <>
        <ErrorSummary
          focusOnMount
          messages={['The company no longer accepts changes.']}
          fields={[{ id: 'email', label: 'E-mail address' }]}
        />
        <input id="email" aria-label="E-mail address" />
      </>,
    );
    const summary = screen.getByRole('alert');
    expect(summary).toHaveFocus();
    expect(summary).toHaveTextContent('There is a problem');
    await userEvent.click(screen.getByRole('link', { name: 'E-mail address' }));
    expect(screen.getByRole('textbox', { name: 'E-mail address' })).toHaveFocus();
  });

  it('counts the fields and shows nothing when there is nothing to say', () => {
    const { rerender } = render(
      <ErrorSummary
        fields={[
          { id: 'a', label: 'A' },
          { id: 'b', label: 'B' },
        ]}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('There are 2 problems');
    rerender(<ErrorSummary />);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('EmptyState and Skeleton', () => {
  it('says there is nothing yet and offers the next action', () => {
    render(<EmptyState title="No documents yet" action={<Button>Review legal notices</Button>} />);
    expect(screen.getByRole('heading', { level: 2, name: 'No documents yet' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Review legal notices' })).toBeInTheDocument();
  });

  it('tells screen readers what is loading and hides the bars', () => {
    render(<Skeleton lines={2} label="Loading your documents" />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading your documents');
  });
});
