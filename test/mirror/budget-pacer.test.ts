import { describe, expect, it } from 'vitest';
import { BudgetPacer } from '../../src/mirror/index.ts';
import { createMemoryStores } from '../../src/store/index.ts';
import type { Stores } from '../../src/store/types.ts';

const T0 = 1_767_225_600_000;

function setUp() {
  const clock = { now: T0 };
  const stores = createMemoryStores({ now: () => clock.now });
  const pacer = new BudgetPacer({
    budget: stores.budget,
    schedule: stores.schedule,
    now: () => clock.now,
  });
  return { clock, stores, pacer };
}

async function take(stores: Stores, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await stores.budget.take('interactive');
}

async function schedule(stores: Stores, tickets: number): Promise<void> {
  for (let i = 1; i <= tickets; i++) await stores.schedule.pollAt(`IT-${i}`, T0 + 60_000);
}

describe('budget pacer', () => {
  it('sizes the idle interval so quiet tickets cost a fixed share of the background hour', async () => {
    const { stores, pacer } = setUp();
    await schedule(stores, 480);
    // 480 tickets on 30% of 800 requests an hour: each polled every 2 hours.
    expect((await pacer.refresh()).idleIntervalMs).toBe(2 * 3_600_000);
  });

  it('stretches the schedule while the recent rate would overrun the hour', async () => {
    const { stores, pacer } = setUp();
    await take(stores, 100);
    const first = await pacer.refresh();
    const second = await pacer.refresh();
    expect(first.stretch).toBeGreaterThan(1);
    expect(second.stretch).toBeGreaterThan(first.stretch);
  });

  it('lets the schedule tighten below its design while the budget goes unused', async () => {
    const { pacer } = setUp();
    let pace = await pacer.refresh();
    for (let i = 0; i < 30; i++) pace = await pacer.refresh();
    expect(pace.stretch).toBe(0.25);
  });

  it('reads the shared counts only once per refresh period', async () => {
    const { clock, stores, pacer } = setUp();
    await pacer.refreshIfDue();
    await take(stores, 200);
    expect((await pacer.refreshIfDue()).stretch).toBeLessThan(1);
    clock.now += 30_000;
    expect((await pacer.refreshIfDue()).stretch).toBeGreaterThan(1);
  });

  it('keeps routine polls out of the last tenth of the background hour', async () => {
    const { clock, stores, pacer } = setUp();
    for (let minute = 0; minute < 10; minute++) {
      await take(stores, 71);
      clock.now += 60_000;
    }
    expect(await pacer.admitsRoutine()).toBe(true);
    await take(stores, 10);
    expect(await pacer.admitsRoutine()).toBe(false);
  });

  it('keeps routine polls back while every replica holds back after a 429', async () => {
    const { clock, stores, pacer } = setUp();
    await stores.budget.backOff(clock.now + 10_000);
    expect(await pacer.admitsRoutine()).toBe(false);
  });
});
