import { describe, expect, it } from 'vitest';
import { planSweep, type SweepRange } from '../../src/mirror/index.ts';

const T0 = 1_767_225_600_000;
const MIN = 60_000;
const cheaper = { always: false, now: T0 };

/** A range read whole: pages of a hundred tickets, one created a minute, from `after`. */
function knownRange(total: number, after = T0 - 10_000 * MIN): SweepRange {
  const firsts = Array.from(
    { length: Math.ceil(total / 100) },
    (_, i) => after + 1 + i * 100 * MIN,
  );
  return { after, total, firsts, checkedAt: T0 - MIN };
}

describe('sweep plan', () => {
  it('leaves a single due ticket to its look, which costs no more than a page', () => {
    expect(planSweep([T0 - MIN], undefined, cheaper)).toMatchObject({ sweep: false, looks: 1 });
  });

  it('asks page 1 of an unknown range when two or more tickets are due, ready to stop if dearer', () => {
    expect(planSweep([T0 - 5 * MIN, T0 - MIN], undefined, cheaper)).toEqual(
      expect.objectContaining({
        sweep: true,
        after: T0 - 5 * MIN - 1,
        pages: 'all',
        stopIfDearer: true,
      }),
    );
  });

  it('leaves a range whose known total costs as many pages as the looks due', () => {
    const range = { after: T0 - 100 * MIN, total: 250, firsts: [], checkedAt: T0 - MIN };
    const plan = planSweep([T0 - 50 * MIN, T0 - 40 * MIN, T0 - 2 * MIN], range, cheaper);
    expect(plan).toMatchObject({ sweep: false, looks: 3, pages: 3 });
  });

  it('reads a range whole when its known total costs fewer pages than the looks due', () => {
    const range = { after: T0 - 100 * MIN, total: 150, firsts: [], checkedAt: T0 - MIN };
    const plan = planSweep([T0 - 50 * MIN, T0 - 40 * MIN, T0 - 2 * MIN], range, cheaper);
    expect(plan).toMatchObject({ sweep: true, pages: 'all', estimate: 2 });
  });

  it('asks page 1 again once a known total is older than it is trusted', () => {
    const range = { after: T0 - 100 * MIN, total: 250, firsts: [], checkedAt: T0 - 31 * MIN };
    const plan = planSweep([T0 - 50 * MIN, T0 - 40 * MIN, T0 - 2 * MIN], range, cheaper);
    expect(plan).toMatchObject({ sweep: true, pages: 'all', stopIfDearer: true });
  });

  it('reads only the known pages holding due tickets, so a very old ticket costs its own page', () => {
    const range = knownRange(1_000);
    const oldest = range.after + 1;
    const recent = [T0 - 3 * MIN, T0 - 2 * MIN, T0 - MIN];
    expect(planSweep([oldest, ...recent], range, cheaper)).toMatchObject({
      sweep: true,
      after: range.after,
      pages: [1, 10],
    });
  });

  it('leaves due tickets that each sit on a page of their own to their looks', () => {
    const range = knownRange(1_000);
    const spread = [range.after + 1, range.after + 1 + 300 * MIN, range.after + 1 + 700 * MIN];
    expect(planSweep(spread, range, cheaper)).toMatchObject({ sweep: false, pages: 3 });
  });

  it('reads an unknown range whole when a due ticket is older than the known pages', () => {
    const range = knownRange(300);
    const plan = planSweep([range.after - MIN, T0 - MIN], range, cheaper);
    expect(plan).toMatchObject({ sweep: true, after: range.after - MIN - 1, pages: 'all' });
  });

  it('sweeps whatever it costs when forced', () => {
    expect(planSweep([T0 - MIN], undefined, { always: true, now: T0 })).toMatchObject({
      sweep: true,
      pages: 'all',
      stopIfDearer: false,
    });
  });
});
