import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SnackbarHost } from '@/components/snackbar/snackbar-host';
import { notify } from '@/lib/notifications';

describe('snackbar', () => {
  it('shows each kind with a Close button that removes the message', async () => {
    const user = userEvent.setup();
    render(<SnackbarHost />);
    act(() => {
      notify('Plain message');
      notify('Something failed', 'error');
      notify('All good', 'success');
    });
    const error = await screen.findByText('Something failed');
    expect(error.closest('[data-kind]')).toHaveAttribute('data-kind', 'error');
    expect(screen.getByText('All good').closest('[data-kind]')).toHaveAttribute('data-kind', 'success');
    expect(screen.getByText('Plain message').closest('[data-kind]')).toHaveAttribute('data-kind', 'message');

    const closeButtons = screen.getAllByRole('button', { name: 'Close' });
    expect(closeButtons).toHaveLength(3);
    await user.click(closeButtons[1]);
    await waitFor(() => expect(screen.queryByText('Something failed')).not.toBeInTheDocument());
  });

  it('lets a message go after its timeout (2500 ms by default)', async () => {
    render(<SnackbarHost />);
    act(() => {
      notify('Short-lived', 'info', 100);
    });
    expect(await screen.findByText('Short-lived')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Short-lived')).not.toBeInTheDocument(), { timeout: 2000 });
  });
});
