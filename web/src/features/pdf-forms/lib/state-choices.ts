// A PDF dropdown that lists US states is shown as every other state picker of
// the app: the states lookup's names, in its order, with "Choose a state".
import type { LookupItem } from '@/lib/lookups';

export type Choice = { value: string; label: string };

/**
 * The choices of a dropdown whose every option is a US state, by postal code ("TX"), lookup code ("US-TX")
 * or name, each keeping the PDF's own option as its value; null for any other dropdown.
 */
export function stateChoices(options: string[], states: LookupItem[]): Choice[] | null {
  if (options.length < 2 || states.length === 0) return null;
  const optionOf = new Map<number, string>();
  for (const option of options) {
    const key = option.trim().toUpperCase();
    const state = states.find(
      (s) => s.code.toUpperCase() === key || s.code.toUpperCase() === `US-${key}` || s.name.toUpperCase() === key,
    );
    if (!state) return null;
    optionOf.set(state.id, option);
  }
  return states.flatMap((s) => {
    const option = optionOf.get(s.id);
    return option === undefined ? [] : [{ value: option, label: s.name }];
  });
}
