import { describe, expect, it } from 'vitest';
import { profileStatusIds, profileStatusShown } from '../profile-status';

describe('profileStatusShown', () => {
  it.each([
    ['QA stays QA', profileStatusIds.QA, 'qa'],
    ['completed shows complete', profileStatusIds.COMPLETED, 'complete'],
    ['pre-adverse-action shows complete', profileStatusIds.PRE_ADVERSE_ACTION, 'complete'],
    ['pending is pending', profileStatusIds.PENDING, 'pending'],
    ['in progress is pending', profileStatusIds.IN_PROGRESS, 'pending'],
    ['done (not COMPLETED) is pending', profileStatusIds.DONE, 'pending'],
    ['an unknown id is pending', 1234, 'pending'],
    ['no id is pending', undefined, 'pending'],
  ] as const)('%s', (_name, id, want) => {
    expect(profileStatusShown(id)).toBe(want);
  });

  it('reads the ids of spec section 4 from the shared file', () => {
    expect(profileStatusIds).toMatchObject({ ACTIVE: 1, COMPLETED: 5, QA: 36, PRE_ADVERSE_ACTION: 65, ALL_ORDERS: 99 });
  });
});
