// The date input (components/ui/date-field.tsx) as a test finds and fills it: a group named by its
// legend, with Day, Month and Year boxes.
import { within, type BoundFunctions, type queries } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';

type Scope = BoundFunctions<typeof queries>;

/** The date field whose legend matches `name`. */
export const dateField = (scope: Scope, name: string | RegExp) =>
  scope.getByRole('group', { name: typeof name === 'string' ? new RegExp(`^${name}`) : name });

/** Types "1990-04-12" (or a month, "2019-06") into the field's boxes, then leaves them. */
export async function typeDate(user: UserEvent, field: HTMLElement, value: string) {
  const [year, month, day] = value.split('-');
  const box = (name: string) => within(field).getByLabelText(name);
  if (day !== undefined) {
    await user.clear(box('Day'));
    await user.type(box('Day'), day);
  }
  await user.clear(box('Month'));
  await user.type(box('Month'), month);
  await user.clear(box('Year'));
  await user.type(box('Year'), year);
  await user.tab();
}

/** What the boxes hold, as the form keeps it ("1990-04-12"). */
export function dateOf(field: HTMLElement) {
  const value = (name: string) => (within(field).queryByLabelText(name) as HTMLInputElement | null)?.value;
  return [value('Year'), value('Month'), value('Day')].filter((v) => v !== undefined).join('-');
}
