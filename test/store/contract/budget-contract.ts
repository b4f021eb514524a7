/** The rate-budget contract: every backend's RateBudget must pass it. */
import { describe, expect, it } from 'vitest';
import type { BudgetGrant, BudgetPriority, RateBudget } from '../../../src/store/types.ts';
import type { StoresBackend } from './harness.ts';
import { fakeClock } from './harness.ts';

const SMALL = { perMinute: 10, perHour: 25, reserve: 0.2 };

async function takeMany(budget: RateBudget, priority: BudgetPriority, count: number) {
  const grants: BudgetGrant[] = [];
  for (let i = 0; i < count; i++) grants.push(await budget.take(priority));
  return grants;
}

const granted = (grants: BudgetGrant[]) => grants.filter((g) => g.granted).length;

/** Registers the rate-budget contract against a backend. */
export function describeBudgetContract(backend: StoresBackend): void {
  describe('rate budget', () => {
    it('grants interactive requests up to the per-minute limit and then says when to retry', async () => {
      const clock = fakeClock();
      const { budget } = backend.namespace(clock, { budget: SMALL }).open();
      const start = clock.now();
      for (let i = 0; i < 10; i++) {
        expect(await budget.take('interactive')).toEqual({ granted: true });
        clock.advance(1_000);
      }
      expect(await budget.take('interactive')).toEqual({
        granted: false,
        retryAt: start + 60_000,
        reason: 'window',
      });
      clock.advance(start + 60_000 - clock.now());
      expect(await budget.take('interactive')).toEqual({ granted: true });
    });

    it('never lets background work make more than its share of a window itself', async () => {
      const clock = fakeClock();
      const { budget } = backend.namespace(clock, { budget: SMALL }).open();
      expect(granted(await takeMany(budget, 'background', 10))).toBe(8);
      expect(granted(await takeMany(budget, 'interactive', 3))).toBe(2);
    });

    it('lets background work use what people left of their reserve, but never the window’s last room', async () => {
      const clock = fakeClock();
      const { budget } = backend.namespace(clock, { budget: SMALL }).open();
      // People took 1 of the minute's 10: background may bring it to 9, not 10.
      await takeMany(budget, 'interactive', 1);
      expect(granted(await takeMany(budget, 'background', 10))).toBe(8);
      expect(granted(await takeMany(budget, 'interactive', 2))).toBe(1);
    });

    it('counts people pressed once their pace over ten minutes would fill twice their reserve of the hour', async () => {
      const clock = fakeClock();
      const limits = { perMinute: 100, perHour: 1_000, reserve: 0.2 };
      const { budget } = backend.namespace(clock, { budget: limits }).open();
      await takeMany(budget, 'interactive', 60);
      expect((await budget.usage()).peoplePressed).toBe(false);
      await takeMany(budget, 'interactive', 10);
      expect((await budget.usage()).peoplePressed).toBe(true);
      // A new minute where people took 10: background stops at 80 in all, not 90.
      clock.advance(60_000);
      await takeMany(budget, 'interactive', 10);
      expect(granted(await takeMany(budget, 'background', 100))).toBe(70);
    });

    it('leaves people their projected hour while they are pressed, however empty the hour started', async () => {
      const clock = fakeClock();
      const limits = { perMinute: 100, perHour: 1_000, reserve: 0.2 };
      const { budget } = backend.namespace(clock, { budget: limits }).open();
      // 70 in ten minutes is a pace of 420 an hour: background may make 800 - 420 = 380 itself.
      await takeMany(budget, 'interactive', 70);
      let background = 0;
      for (let minute = 0; minute < 6; minute++) {
        clock.advance(60_000);
        background += granted(await takeMany(budget, 'background', 100));
      }
      expect(background).toBe(380);
      const refused = await budget.take('background');
      expect(refused).toMatchObject({ granted: false, reason: 'window' });
    });

    it('keeps background work out of people’s whole reserve for a while after a person’s request found no room', async () => {
      const clock = fakeClock();
      const limits = { perMinute: 10, perHour: 1_000, reserve: 0.2 };
      const { budget } = backend.namespace(clock, { budget: limits }).open();
      await takeMany(budget, 'interactive', 10);
      expect((await budget.take('interactive')).granted).toBe(false);
      expect((await budget.usage()).peoplePressed).toBe(true);
      clock.advance(60_000);
      // People took 1 of a new minute: background stops at 8 in all (their whole reserve kept).
      await takeMany(budget, 'interactive', 1);
      expect(granted(await takeMany(budget, 'background', 10))).toBe(7);
      clock.advance(60 * 60_000);
      expect((await budget.usage()).peoplePressed).toBe(false);
      // No longer pressed: background may bring the minute to 9.
      await takeMany(budget, 'interactive', 1);
      expect(granted(await takeMany(budget, 'background', 10))).toBe(8);
    });

    it('counts the hour across minutes and refuses until its oldest request is an hour old', async () => {
      const clock = fakeClock();
      const { budget } = backend.namespace(clock, { budget: SMALL }).open();
      const start = clock.now();
      for (let minute = 0; minute < 3; minute++) {
        await takeMany(budget, 'interactive', minute < 2 ? 10 : 5);
        clock.advance(60_000);
      }
      const refused = await budget.take('interactive');
      expect(refused).toEqual({ granted: false, retryAt: start + 3_600_000, reason: 'window' });
      clock.advance(start + 3_600_000 - clock.now());
      expect((await budget.take('interactive')).granted).toBe(true);
    });

    it('two replicas taking at once never exceed the limit together', async () => {
      const ns = backend.namespace(fakeClock(), { budget: SMALL });
      const grants = await Promise.all(
        Array.from({ length: 30 }, (_, i) => ns.open(i).budget.take('interactive')),
      );
      expect(granted(grants)).toBe(10);
    });

    it('adopts a stricter remaining count from the platform until its window resets', async () => {
      const clock = fakeClock();
      const { budget } = backend.namespace(clock).open();
      const resetAt = clock.now() + 30_000;
      await budget.observe({ limit: 100, remaining: 3, resetAt, observedAt: clock.now() });
      expect(await budget.take('background')).toEqual({
        granted: false,
        retryAt: resetAt,
        reason: 'window',
      });
      expect(granted(await takeMany(budget, 'interactive', 5))).toBe(3);
      clock.advance(30_000);
      expect((await budget.take('background')).granted).toBe(true);
    });

    it('adopts an hour window named by its limit', async () => {
      const clock = fakeClock();
      const { budget } = backend.namespace(clock).open();
      const resetAt = clock.now() + 600_000;
      await budget.observe({ limit: 1000, remaining: 50, resetAt, observedAt: clock.now() });
      expect((await budget.usage()).hour).toBe(950);
      expect(await budget.take('background')).toEqual({
        granted: false,
        retryAt: resetAt,
        reason: 'window',
      });
      expect((await budget.take('interactive')).granted).toBe(true);
    });

    it('keeps the lower count of one window and ignores an older window', async () => {
      const clock = fakeClock();
      const { budget } = backend.namespace(clock).open();
      const now = clock.now();
      await budget.observe({ limit: 100, remaining: 10, resetAt: now + 30_000, observedAt: now });
      await budget.observe({ limit: 100, remaining: 60, resetAt: now + 30_000, observedAt: now });
      await budget.observe({ limit: 100, remaining: 90, resetAt: now + 20_000, observedAt: now });
      expect((await budget.usage()).minute).toBe(90);
    });

    it('holds every replica back after a 429 until the reset, whatever the priority', async () => {
      const clock = fakeClock();
      const ns = backend.namespace(clock);
      const until = clock.now() + 45_000;
      await ns.open(0).budget.backOff(until);
      await ns.open(0).budget.backOff(clock.now() + 5_000);
      const refusal = { granted: false, retryAt: until, reason: 'backoff' };
      expect(await ns.open(1).budget.take('interactive')).toEqual(refusal);
      expect(await ns.open(1).budget.take('background')).toEqual(refusal);
      expect((await ns.open(1).budget.usage()).blockedUntil).toBe(until);
      clock.advance(45_000);
      expect(await ns.open(1).budget.take('background')).toEqual({ granted: true });
      expect((await ns.open(1).budget.usage()).blockedUntil).toBeUndefined();
    });

    it('reports what each window has used, and a recent window of the caller’s choosing', async () => {
      const clock = fakeClock();
      const { budget } = backend.namespace(clock).open();
      await takeMany(budget, 'interactive', 4);
      clock.advance(120_000);
      await takeMany(budget, 'background', 2);
      expect(await budget.usage(60_000)).toEqual({
        minute: 2,
        hour: 6,
        recent: 2,
        background: { minute: 2, hour: 2, recent: 2 },
        blockedUntil: undefined,
        peoplePressed: false,
      });
    });

    it('tells the background work’s part of each window from people’s requests', async () => {
      const clock = fakeClock();
      const ns = backend.namespace(clock);
      await takeMany(ns.open(0).budget, 'background', 3);
      clock.advance(120_000);
      await takeMany(ns.open(1).budget, 'interactive', 5);
      await takeMany(ns.open(1).budget, 'background', 1);
      const usage = await ns.open(0).budget.usage(300_000);
      expect(usage.background).toEqual({ minute: 1, hour: 4, recent: 4 });
      expect([usage.minute, usage.hour]).toEqual([6, 9]);
    });
  });
}
