import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { preloadSnackbar, SnackbarHost } from '@/components/snackbar/snackbar-host';
import { DEFAULT_SNACKBAR_TIMEOUT, notify, type Snack } from '@/lib/notifications';

afterEach(() => {
  vi.useRealTimers();
});

describe('snackbar', () => {
  it('shows each kind (message, error, success, info) with a Close button that removes the message', async () => {
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

    act(() => {
      notify('For your information', 'info');
    });
    const info = await screen.findByText('For your information');
    expect(info.closest('[data-kind]')).toHaveAttribute('data-kind', 'info');
    expect(info.closest('[data-kind]')?.querySelector('button')).toHaveTextContent('Close');
  });

  it('shows a message’s action, which does what it offers and closes the message', async () => {
    const user = userEvent.setup();
    const onSelect = vi.fn();
    render(<SnackbarHost />);
    act(() => {
      notify('New message from Acme Logistics hiring team', 'info', 10000, { label: 'Open', onSelect });
    });
    await user.click(await screen.findByRole('button', { name: 'Open' }));
    expect(onSelect).toHaveBeenCalledTimes(1);
    await waitFor(() =>
      expect(screen.queryByText('New message from Acme Logistics hiring team')).not.toBeInTheDocument(),
    );
  });

  it('lets a message go after 2500 ms by default', async () => {
    // The snackbar's code loads with real timers; only the toast's timers are faked.
    await preloadSnackbar();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    render(<SnackbarHost />);
    let snack: Snack | undefined;
    await act(async () => {
      snack = notify('Saved for later', 'info');
    });
    expect(DEFAULT_SNACKBAR_TIMEOUT).toBe(2500);
    expect(snack).toMatchObject({ kind: 'info', timeout: 2500 });
    expect(screen.getByText('Saved for later').closest('[data-kind]')).toHaveAttribute('data-kind', 'info');

    await act(async () => {
      await vi.advanceTimersByTimeAsync(2499);
    });
    expect(screen.getByText('Saved for later')).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(screen.queryByText('Saved for later')).not.toBeInTheDocument();
  });

  it('keeps a confirmation for the timeout it was given', async () => {
    await preloadSnackbar();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    render(<SnackbarHost />);
    await act(async () => {
      notify('Document uploaded', 'success', 6000);
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5999);
    });
    expect(screen.getByText('Document uploaded')).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(screen.queryByText('Document uploaded')).not.toBeInTheDocument();
  });

  it('keeps an error until it is closed, whatever timeout it was given', async () => {
    await preloadSnackbar();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    render(<SnackbarHost />);
    let snack: Snack | undefined;
    await act(async () => {
      snack = notify('The download failed', 'error', 6000);
    });
    expect(snack?.timeout).toBe(Infinity);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10 * 60_000);
    });
    expect(screen.getByText('The download failed')).toBeInTheDocument();
    vi.useRealTimers();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByText('The download failed')).not.toBeInTheDocument());
  });

  it('lets a confirmation give way before an error when more than three are queued', async () => {
    render(<SnackbarHost />);
    act(() => {
      notify('First failure', 'error');
      notify('Saved', 'success');
      notify('Second failure', 'error');
      notify('Uploaded', 'success');
    });
    expect(await screen.findByText('First failure')).toBeInTheDocument();
    expect(screen.getByText('Second failure')).toBeInTheDocument();
    expect(screen.getByText('Uploaded')).toBeInTheDocument();
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
  });
});
