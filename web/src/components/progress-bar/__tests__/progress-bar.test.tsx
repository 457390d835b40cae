import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PROGRESS_THROTTLE_MS, ProgressBar } from '@/components/progress-bar/progress-bar';
import { progress } from '@/lib/progress';

// Only the timers the bar uses are faked; React's scheduler keeps its own.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});

afterEach(() => {
  vi.useRealTimers();
  // Leave the shared counter as the next test expects it.
  while (progress.getSnapshot().inFlight > 0) progress.done();
});

function advance(ms: number) {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
}

describe('progress bar', () => {
  it('appears only once a navigation has taken 200 ms', () => {
    expect(PROGRESS_THROTTLE_MS).toBe(200);
    render(<ProgressBar navigating />);
    advance(199);
    expect(screen.queryByTestId('loading-bar')).not.toBeInTheDocument();
    advance(1);
    expect(screen.getByTestId('loading-bar')).toBeInTheDocument();
    // A picture only: outside every landmark, with no value to read (axe: region).
    expect(screen.getByTestId('loading-bar')).toHaveAttribute('aria-hidden', 'true');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('appears after 200 ms of an API request in flight, and not at all for a quicker one', () => {
    render(<ProgressBar navigating={false} />);
    act(() => progress.start());
    advance(150);
    act(() => progress.done());
    advance(500);
    expect(screen.queryByTestId('loading-bar')).not.toBeInTheDocument();

    act(() => progress.start());
    advance(199);
    expect(screen.queryByTestId('loading-bar')).not.toBeInTheDocument();
    advance(1);
    expect(screen.getByTestId('loading-bar')).toHaveAttribute('data-phase', 'running');

    // Finishing: the bar completes, then leaves.
    act(() => progress.done());
    expect(screen.getByTestId('loading-bar')).toHaveAttribute('data-phase', 'finishing');
    advance(500);
    expect(screen.queryByTestId('loading-bar')).not.toBeInTheDocument();
  });
});
