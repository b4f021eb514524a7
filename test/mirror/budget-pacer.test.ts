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
    feed: stores.feed,
    now: () => clock.now,
  });
  return { clock, stores, pacer };
}

async function take(
  stores: Stores,
  count: number,
  priority: 'interactive' | 'background' = 'interactive',
): Promise<void> {
  for (let i = 0; i < count; i++) await stores.budget.take(priority);
}

/** Background requests evenly over the five minutes before the clock's new time. */
async function fiveMinutesOf(
  stores: Stores,
  clock: { now: number },
  requests: number,
): Promise<void> {
  const stepMs = 300_000 / requests;
  for (let i = 0; i < requests; i++) {
    await take(stores, 1, 'background');
    clock.now += stepMs;
  }
}

async function schedule(stores: Stores, tickets: number): Promise<void> {
  for (let i = 1; i <= tickets; i++) await stores.schedule.pollAt(`IT-${i}`, T0 + 60_000);
}

describe('budget pacer', () => {
  it('finds every ticket watched while scans by updated_after read every change, and only then', async () => {
    const { clock, stores, pacer } = setUp();
    expect((await pacer.refresh()).watched).toBe(false);
    const filter = { way: 'filter', detectedAt: T0, cursor: T0 - 2_000, since: T0 - 60_000 };
    await stores.feed.saveState({ scannedAt: clock.now, data: filter });
    expect((await pacer.refresh()).watched).toBe(true);
    clock.now += 80_000;
    expect((await pacer.refresh()).watched).toBe(false);
    await stores.feed.saveState({ scannedAt: clock.now, data: { ...filter, way: 'sweep' } });
    expect((await pacer.refresh()).watched).toBe(false);
    await stores.feed.saveState({
      scannedAt: clock.now + 1,
      data: { way: 'filter', detectedAt: T0 },
    });
    expect((await pacer.refresh()).watched).toBe(false);
  });

  it('finds every ticket watched while a sweep’s watch is within two and a half of its periods, and not after', async () => {
    const { clock, stores, pacer } = setUp();
    const sweep = { way: 'sweep', detectedAt: T0, watch: { at: T0, periodMs: 60_000 } };
    await stores.feed.saveState({ scannedAt: T0, data: sweep });
    expect((await pacer.refresh()).watched).toBe(true);
    // Past the 75 s a scan by updated_after is trusted for, but within 2.5 sweep periods.
    clock.now = T0 + 150_000;
    expect((await pacer.refresh()).watched).toBe(true);
    clock.now += 1;
    expect((await pacer.refresh()).watched).toBe(false);
  });

  it('still wants a scan by updated_after within 75 s, whatever watch its record holds', async () => {
    const { clock, stores, pacer } = setUp();
    const filter = {
      way: 'filter',
      detectedAt: T0,
      cursor: T0 - 2_000,
      since: T0 - 60_000,
      watch: { at: T0, periodMs: 600_000 },
    };
    await stores.feed.saveState({ scannedAt: T0, data: filter });
    clock.now = T0 + 75_000;
    expect((await pacer.refresh()).watched).toBe(true);
    clock.now += 1;
    expect((await pacer.refresh()).watched).toBe(false);
  });

  it('watches nothing while the feed’s last scans failed on the platform, however recent', async () => {
    const { clock, stores, pacer } = setUp();
    const filter = { way: 'filter', detectedAt: T0, cursor: T0 - 2_000, since: T0 - 60_000 };
    await stores.feed.saveState({ scannedAt: T0, data: { ...filter, failedAt: T0 } });
    clock.now = T0 + 1_000;
    expect((await pacer.refresh()).watched).toBe(false);
    await stores.feed.saveState({ scannedAt: T0 + 25_000, data: filter });
    clock.now = T0 + 26_000;
    expect((await pacer.refresh()).watched).toBe(true);
  });

  it('tells the requests background work may make itself in an hour', () => {
    const { pacer } = setUp();
    // 1,000 an hour less the 20% kept for people.
    expect(pacer.backgroundHour()).toBe(800);
  });

  it('sizes the idle interval so quiet tickets cost a fixed share of the background hour', async () => {
    const { stores, pacer } = setUp();
    await schedule(stores, 480);
    // 480 tickets on 30% of 800 requests an hour: each polled every 2 hours.
    expect((await pacer.refresh()).idleIntervalMs).toBe(2 * 3_600_000);
  });

  it('trusts a look where a feed vouches for it for longer as the scheduled tickets grow, past the six-hour cap on the idle interval', async () => {
    const { stores, pacer } = setUp();
    await schedule(stores, 2_000);
    // 2,000 tickets on 2% of 800 requests an hour: each looked at for real every 125 hours.
    expect(await pacer.refresh()).toMatchObject({
      idleIntervalMs: 6 * 3_600_000,
      trustMs: 450_000_000,
    });
    await schedule(stores, 4_000);
    expect(await pacer.refresh()).toMatchObject({
      idleIntervalMs: 6 * 3_600_000,
      trustMs: 900_000_000,
    });
  });

  it('never trusts a look for less than the idle interval', async () => {
    const { stores, pacer } = setUp();
    await schedule(stores, 2);
    // 2 tickets on 2% of 800 requests an hour would be 7.5 minutes: the 10-minute floor holds.
    expect(await pacer.refresh()).toMatchObject({ idleIntervalMs: 600_000, trustMs: 600_000 });
  });

  it('stretches the schedule while the recent rate would overrun the hour', async () => {
    const { stores, pacer } = setUp();
    await take(stores, 100, 'background');
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
    await take(stores, 200, 'background');
    expect((await pacer.refreshIfDue()).stretch).toBeLessThan(1);
    clock.now += 30_000;
    expect((await pacer.refreshIfDue()).stretch).toBeGreaterThan(1);
  });

  it('keeps routine polls out of the last tenth of the background’s own share of the hour', async () => {
    const { clock, stores, pacer } = setUp();
    for (let step = 0; step < 10; step++) {
      await take(stores, 71, 'background');
      clock.now += 5 * 60_000;
    }
    expect(await pacer.admits('routine')).toBe(true);
    await take(stores, 10, 'background');
    expect(await pacer.admits('routine')).toBe(false);
  });

  it('lets hinted polls go halfway from the routine level to the background’s share', async () => {
    const { clock, stores, pacer } = setUp();
    for (let step = 0; step < 10; step++) {
      await take(stores, 75, 'background');
      clock.now += 5 * 60_000;
    }
    expect(await pacer.admits('routine')).toBe(false);
    expect(await pacer.admits('hinted')).toBe(true);
    await take(stores, 10, 'background');
    expect(await pacer.admits('hinted')).toBe(false);
  });

  it('lets a look a hinted change asked for go past the hinted level, to a tenth of the routine headroom below the background’s share', async () => {
    const { clock, stores, pacer } = setUp();
    for (let step = 0; step < 10; step++) {
      await take(stores, 75, 'background');
      clock.now += 5 * 60_000;
    }
    await take(stores, 35, 'background');
    expect(await pacer.admits('hinted')).toBe(false);
    expect(await pacer.admits('awaited')).toBe(true);
    // 792 of the 800: what its read of the activity may need next keeps its room.
    await take(stores, 7, 'background');
    expect(await pacer.admits('awaited')).toBe(false);
  });

  it('does not keep a look a hinted change asked for to the hour’s pace', async () => {
    const { clock, stores, pacer } = setUp();
    await fiveMinutesOf(stores, clock, 200);
    expect(await pacer.admits('hinted')).toBe(false);
    expect(await pacer.admits('awaited')).toBe(true);
  });

  it('keeps a look a hinted change asked for with the hinted ones while people are pressed', async () => {
    const { clock, stores, pacer } = setUp();
    // People's 430 of the hour, past twice their reserve, press them; the poller's last five
    // minutes are past three times the hour's pace that then leaves it.
    for (let minute = 0; minute < 55; minute++) {
      await take(stores, 8, 'interactive');
      clock.now += 60_000;
    }
    await fiveMinutesOf(stores, clock, 100);
    await take(stores, 15, 'interactive');
    expect((await stores.budget.usage(300_000)).peoplePressed).toBe(true);
    expect(await pacer.admits('hinted')).toBe(false);
    expect(await pacer.admits('awaited')).toBe(false);
  });

  it('lets routine polls use the hour people left unspent, but not the room kept for them', async () => {
    const { clock, stores, pacer } = setUp();
    // People spent 50 and the poller 700: 750 in all, past the 720 a reserve of the total
    // would stop routine polls at, yet the poller's own share and people's room are intact.
    for (let step = 0; step < 10; step++) {
      await take(stores, 5, 'interactive');
      await take(stores, 70, 'background');
      clock.now += 5 * 60_000;
    }
    expect(await pacer.admits('routine')).toBe(true);
    await take(stores, 30, 'background');
    expect(await pacer.admits('routine')).toBe(false);
  });

  it('keeps routine polls to the hour’s pace, so a burst does not spend the hour in minutes, and lets hinted polls through', async () => {
    const { clock, stores, pacer } = setUp();
    // 100 in five minutes would make 1,200 of an hour whose room is 720: routine polls wait
    // until enough of them leave the five minutes, though the hour itself has room.
    await fiveMinutesOf(stores, clock, 100);
    expect(await pacer.admits('routine')).toBe(false);
    expect(await pacer.admits('hinted')).toBe(true);
    const at = await pacer.roomAt('routine');
    expect(at).toBeGreaterThan(clock.now);
    clock.now = at ?? clock.now;
    expect(await pacer.admits('routine')).toBe(true);
  });

  it('keeps hinted polls to three times the hour’s pace', async () => {
    const { clock, stores, pacer } = setUp();
    // 200 in five minutes would make 2,400 of an hour whose room is 720, past three times it.
    await fiveMinutesOf(stores, clock, 200);
    expect(await pacer.admits('hinted')).toBe(false);
    clock.now = (await pacer.roomAt('hinted')) ?? clock.now;
    expect(await pacer.admits('hinted')).toBe(true);
    expect(await pacer.admits('routine')).toBe(false);
  });

  it('keeps routine polls back while every replica holds back after a 429', async () => {
    const { clock, stores, pacer } = setUp();
    await stores.budget.backOff(clock.now + 10_000);
    expect(await pacer.admits('routine')).toBe(false);
    expect(await pacer.admits('hinted')).toBe(false);
  });
  it('does not stretch the schedule for people’s requests, which it cannot steer', async () => {
    const { clock, stores, pacer } = setUp();
    // People alone spend 690 requests an hour: routine polls still go, and nothing the
    // stretch could slow.
    for (let second = 0; second < 3_600; second += 10) {
      await take(stores, (second / 10) % 12 === 0 ? 1 : 2, 'interactive');
      if (second % 30 === 0) await pacer.refresh();
      clock.now += 10_000;
    }
    expect(await pacer.admits('routine')).toBe(true);
    expect(pacer.pace().stretch).toBeLessThanOrEqual(1);
  });

  it('keeps routine polls out of people’s whole reserve while a person’s request found no room lately', async () => {
    const { clock, stores, pacer } = setUp();
    for (let step = 0; step < 10; step++) {
      await take(stores, 5, 'interactive');
      await take(stores, 65, 'background');
      clock.now += 5 * 60_000;
    }
    expect(await pacer.admits('routine')).toBe(true);
    // People fill a minute and one of them finds no room: 800 in the hour would still leave
    // routine polls room, but not while people's whole reserve is kept.
    await take(stores, 101, 'interactive');
    clock.now += 60_000;
    expect(await pacer.admits('routine')).toBe(false);
  });

  it('keeps a hot ticket looked at while people’s adds and their first looks fill the hour up to the routine gate', async () => {
    const { clock, stores, pacer } = setUp();
    let owed = 0;
    let looksInSecondHour = 0;
    for (let second = 0; second < 7_200; second += 10) {
      // A person adds a message every 10 s; most adds get a first look (background, unstretched).
      await take(stores, 1, 'interactive');
      if ((second / 10) % 12 !== 0) await take(stores, 1, 'background');
      // One hot ticket wants a routine look every two minutes, times the stretch.
      owed += 1 / 12 / pacer.pace().stretch;
      for (; owed >= 1; owed -= 1) {
        if (!(await pacer.admits('routine'))) continue;
        await take(stores, 1, 'background');
        if (second >= 3_600) looksInSecondHour += 1;
      }
      if (second % 30 === 0) await pacer.refresh();
      clock.now += 10_000;
    }
    expect(pacer.pace().stretch).toBeLessThan(2);
    expect(looksInSecondHour).toBeGreaterThanOrEqual(20);
  });
});
