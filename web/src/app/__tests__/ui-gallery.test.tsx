import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render-app';

describe('/ui gallery', () => {
  it('shows Progress not started, under way and done, each bar named and its value in words', async () => {
    renderApp('/ui');
    const section = await screen.findByRole('region', { name: 'Progress' });
    const bars = within(section).getAllByRole('progressbar');
    expect(bars.map((bar) => [bar.getAttribute('aria-valuenow'), bar.getAttribute('aria-valuetext')])).toEqual([
      ['0', '0% sent'],
      ['40', '40% sent'],
      ['100', '100% sent'],
    ]);
    expect(within(section).getByRole('progressbar', { name: 'Upload of diploma.pdf' })).toBeInTheDocument();
  });
});
