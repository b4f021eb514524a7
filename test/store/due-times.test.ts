import { describe, expect, it } from 'vitest';
import { DueTimes } from '../../src/store/due-times.ts';
import { seededRandom } from '../../tools/emulator/random.ts';

// What a Redis sorted set would answer: by time, then by ticket.
function sorted(model: Map<string, number>, until: number): [string, number][] {
  return [...model]
    .filter(([, at]) => at <= until)
    .sort(([a, at], [b, bt]) => (at !== bt ? at - bt : a < b ? -1 : 1));
}

describe('due times', () => {
  it('hands out what is due in the order of a sorted set through any mix of sets, deletes and takes', () => {
    const random = seededRandom(7);
    const due = new DueTimes();
    const model = new Map<string, number>();
    for (let step = 0; step < 5_000; step++) {
      const id = `IT-${Math.floor(random() * 200)}`;
      const roll = random();
      if (roll < 0.6) {
        const at = Math.floor(random() * 1_000);
        due.set(id, at);
        model.set(id, at);
      } else if (roll < 0.8) {
        expect(due.delete(id)).toBe(model.delete(id));
      } else {
        const until = Math.floor(random() * 1_000);
        const limit = 1 + Math.floor(random() * 10);
        const expected = sorted(model, until).slice(0, limit);
        expect([...due.ordered(until)].slice(0, limit)).toEqual(expected);
        expect(due.takeDue(until, limit)).toEqual(expected);
        for (const [taken] of expected) model.delete(taken);
      }
      expect(due.size).toBe(model.size);
      expect(due.earliest()).toBe(sorted(model, Number.POSITIVE_INFINITY)[0]?.[1]);
    }
  });

  it('takes out what it hands out, so a ticket is handed out once until it is given a time again', () => {
    const due = new DueTimes();
    due.set('IT-1', 10);
    due.set('IT-1', 20);
    due.set('IT-1', 10);
    expect(due.takeDue(30, 5)).toEqual([['IT-1', 10]]);
    expect(due.get('IT-1')).toBeUndefined();
    expect(due.takeDue(30, 5)).toEqual([]);
  });
});
