import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { preloadSnackbar } from '@/components/snackbar/snackbar-host';
import { notify } from '@/lib/notifications';

// Counts the loads of the snackbar's chunk the app asks for.
vi.mock('@/components/snackbar/snackbar-host', async (importOriginal) => {
  const original = await importOriginal<typeof import('@/components/snackbar/snackbar-host')>();
  return { ...original, preloadSnackbar: vi.fn(original.preloadSnackbar) };
});

describe('loading the snackbar', () => {
  it('is not part of a page nobody touches, and starts at the first key or pointer press', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestIdleCallback', 'cancelIdleCallback'] });
    try {
      render(
        <AppProvider>
          <p>Login page</p>
        </AppProvider>,
      );
      // Well past the moment an idle prefetch would have fired.
      await act(async () => {
        await vi.advanceTimersByTimeAsync(10_000);
      });
      expect(preloadSnackbar).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }

    fireEvent.keyDown(screen.getByText('Login page'), { key: 'Tab' });
    expect(preloadSnackbar).toHaveBeenCalledTimes(1);
    fireEvent.pointerDown(screen.getByText('Login page'));
    expect(preloadSnackbar).toHaveBeenCalledTimes(1);
  });

  it('shows a message raised before the snackbar has loaded', async () => {
    render(
      <AppProvider>
        <p>Page</p>
      </AppProvider>,
    );
    act(() => {
      notify('Successfully logged in', 'success');
    });
    expect(await screen.findByText('Successfully logged in')).toBeInTheDocument();
  });
});
