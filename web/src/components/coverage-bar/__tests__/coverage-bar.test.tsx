import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { monthIndex } from '@/lib/months';
import { CoverageBar } from '../coverage-bar';

const m = monthIndex;

describe('the coverage bar', () => {
  it('says every period in words, and a gap button adds an entry for exactly its months', async () => {
    const onAddGap = vi.fn();
    render(
      <CoverageBar
        periods={[
          { from: m('2020-01'), to: m('2021-02') },
          { from: m('2021-09'), to: m('2022-06') },
          { from: m('2022-03'), to: m('2022-12') },
        ]}
        start={m('2020-01')}
        end={m('2022-12')}
        addLabel={(range) => `Add an address for ${range}`}
        onAddGap={onAddGap}
        gapButtonId={(n) => `gap-${n}`}
      />,
    );
    const list = screen.getByRole('list', { name: 'Months from Jan 2020 to Dec 2022, in order' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Covered: Jan 2020 to Feb 2021 (14 months)',
      'Gap: Mar 2021 to Aug 2021 (6 months)Add an address for Mar 2021 to Aug 2021',
      'Covered: Sep 2021 to Feb 2022 (6 months)',
      'Overlap: Mar 2022 to Jun 2022 (4 months)',
      'Covered: Jul 2022 to Dec 2022 (6 months)',
    ]);
    const add = screen.getByRole('button', { name: 'Add an address for Mar 2021 to Aug 2021' });
    expect(add).toHaveAttribute('id', 'gap-0');
    await userEvent.setup().click(add);
    expect(onAddGap).toHaveBeenCalledWith({ kind: 'gap', from: m('2021-03'), to: m('2021-08') });
  });

  it('offers no button where no entry may be added, and names a one-month gap by its month', () => {
    render(
      <CoverageBar
        periods={[{ from: m('2020-02'), to: m('2020-12') }]}
        start={m('2020-01')}
        end={m('2020-12')}
        addLabel={(range) => `Add an employer for ${range}`}
      />,
    );
    expect(screen.getByText('Gap: Jan 2020 (1 month)')).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});
