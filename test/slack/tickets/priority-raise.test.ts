import { describe, expect, it } from 'vitest';
import {
  isAtLeast,
  pinnedRaiseFrom,
  priorityAbove,
} from '../../../src/slack/tickets/priority-raise.ts';
import { createMemoryStores } from '../../../src/store/index.ts';

describe('raising a priority one step', () => {
  it('goes low → medium → high → urgent', () => {
    expect(['low', 'medium', 'high'].map((p) => priorityAbove(p))).toEqual([
      'medium',
      'high',
      'urgent',
    ]);
  });

  it('has nothing above urgent, nor above a priority the contract does not know', () => {
    expect(priorityAbove('urgent')).toBeUndefined();
    expect(priorityAbove('critical')).toBeUndefined();
    expect(priorityAbove(null)).toBeUndefined();
  });

  it('counts a priority at or above another in the contract’s order', () => {
    expect(isAtLeast('urgent', 'high')).toBe(true);
    expect(isAtLeast('high', 'high')).toBe(true);
    expect(isAtLeast('medium', 'high')).toBe(false);
    expect(isAtLeast('critical', 'high')).toBe(false);
  });

  it('starts every attempt of one delivery from the priority its first attempt saw', async () => {
    const { claims } = createMemoryStores();
    expect(await pinnedRaiseFrom(claims, 'event:A1:T1:Ev1', 'medium')).toBe('medium');
    // The first write landed (medium → high) but its answer was lost: the retry sees high.
    expect(await pinnedRaiseFrom(claims, 'event:A1:T1:Ev1', 'high')).toBe('medium');
  });

  it('starts another delivery from the priority the ticket has then', async () => {
    const { claims } = createMemoryStores();
    await pinnedRaiseFrom(claims, 'event:A1:T1:Ev1', 'medium');
    expect(await pinnedRaiseFrom(claims, 'event:A1:T1:Ev2', 'high')).toBe('high');
  });
});
