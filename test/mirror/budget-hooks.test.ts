import { afterEach, describe, expect, it } from 'vitest';
import {
  BudgetDeferredError,
  BudgetExhaustedError,
  createBudgetHooks,
} from '../../src/mirror/index.ts';
import { StoreUnavailableError } from '../../src/store/errors.ts';
import { createMemoryStores } from '../../src/store/index.ts';
import type { RateBudget } from '../../src/store/types.ts';
import { envelope, type Harness, harness, rejectionOf, T0 } from '../servicedesk/fixtures.ts';

const SMALL = { perMinute: 10, perHour: 100, reserve: 0.2 };

/** A budget and hooks on one fake clock that the hooks' sleeps move forward. */
function setUp(budget: Partial<typeof SMALL> = SMALL) {
  const clock = { now: T0 };
  const sleeps: number[] = [];
  const stores = createMemoryStores({ now: () => clock.now, budget });
  const delays: number[] = [];
  const hooks = createBudgetHooks({
    budget: stores.budget,
    now: () => clock.now,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock.now += ms;
    },
    onInteractiveDelayed: (ms) => delays.push(ms),
  });
  return { clock, sleeps, delays, hooks, budget: stores.budget };
}

async function fill(budget: RateBudget, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await budget.take('interactive');
}

const ticket = (priority: 'interactive' | 'background') => ({
  operation: 'listActivity' as const,
  method: 'GET',
  priority,
});

describe('budget hooks', () => {
  it('lets a request go at once while the budget has room', async () => {
    const { hooks, sleeps, budget } = setUp();
    await hooks.acquire(ticket('background'));
    expect(sleeps).toEqual([]);
    expect((await budget.usage()).minute).toBe(1);
  });

  it('makes an interactive request wait for room rather than fail, and reports the wait', async () => {
    const { hooks, sleeps, delays, budget, clock } = setUp();
    await fill(budget, 10);
    clock.now += 55_000;
    await hooks.acquire(ticket('interactive'));
    expect(sleeps).toEqual([5_000]);
    expect(delays).toEqual([5_000]);
  });

  it('defers a background request that finds no room, naming when room comes back', async () => {
    const { hooks, budget, sleeps } = setUp();
    // People took 9 of the minute's 10: the last one is theirs.
    await fill(budget, 9);
    const error = await rejectionOf(hooks.acquire(ticket('background')));
    expect(error).toBeInstanceOf(BudgetDeferredError);
    expect(error).toMatchObject({ code: 'mirror_budget_deferred', retryAt: T0 + 60_000 });
    expect(sleeps).toEqual([]);
  });

  it('refuses an interactive request whose wait would exceed its limit', async () => {
    const clock = { now: T0 };
    const stores = createMemoryStores({ now: () => clock.now, budget: SMALL });
    const hooks = createBudgetHooks({
      budget: stores.budget,
      maxInteractiveWaitMs: 5_000,
      now: () => clock.now,
      sleep: async (ms) => {
        clock.now += ms;
      },
    });
    await fill(stores.budget, 10);
    expect(await rejectionOf(hooks.acquire(ticket('interactive')))).toBeInstanceOf(
      BudgetExhaustedError,
    );
    expect(clock.now).toBe(T0);
    expect((await stores.budget.usage()).minute).toBe(10);
  });

  it('adopts the platform’s remaining count from every response', async () => {
    const { hooks, budget } = setUp({ perMinute: 100, perHour: 1000, reserve: 0.2 });
    hooks.onRateLimit(
      { limit: 100, remaining: 5, resetAt: T0 + 40_000, observedAt: T0 },
      { status: 200, operation: 'listActivity' },
    );
    await hooks.settled();
    expect((await budget.usage()).minute).toBe(95);
    expect(await rejectionOf(hooks.acquire(ticket('background')))).toMatchObject({
      retryAt: T0 + 40_000,
    });
  });

  it('after a 429 holds every request back until the reset', async () => {
    const { hooks, budget, sleeps } = setUp({ perMinute: 100, perHour: 1000, reserve: 0.2 });
    hooks.onRateLimit(
      { limit: 1000, remaining: 0, resetAt: T0 + 4_000, observedAt: T0 },
      { status: 429, operation: 'addMessage' },
    );
    await hooks.settled();
    expect((await budget.usage()).blockedUntil).toBe(T0 + 4_000);
    expect(await rejectionOf(hooks.acquire(ticket('background')))).toMatchObject({
      reason: 'backoff',
    });
    await hooks.acquire(ticket('interactive'));
    expect(sleeps).toEqual([4_000]);
  });

  it('serves a person when the budget cannot be reached, and defers background work', async () => {
    const clock = { now: T0 };
    const broken: RateBudget = {
      limits: { perMinute: 100, perHour: 1000, reserve: 0.2 },
      take: async () => {
        throw new StoreUnavailableError('budget.take');
      },
      observe: async () => undefined,
      backOff: async () => undefined,
      usage: async () => ({
        minute: 0,
        hour: 0,
        recent: 0,
        background: { minute: 0, hour: 0, recent: 0 },
        blockedUntil: undefined,
        peoplePressed: false,
      }),
    };
    const warnings: object[] = [];
    const hooks = createBudgetHooks({
      budget: broken,
      now: () => clock.now,
      logger: { warn: (obj) => void warnings.push(obj) },
    });
    await hooks.acquire(ticket('interactive'));
    expect(await rejectionOf(hooks.acquire(ticket('background')))).toMatchObject({
      code: 'mirror_budget_deferred',
      retryAt: T0 + 5_000,
    });
    expect(warnings).toHaveLength(2);
  });
});

describe('budget hooks on the service-desk client', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('a deferred background call sends nothing, and a response’s headers reach the budget', async () => {
    const clock = { now: T0 };
    const stores = createMemoryStores({ now: () => clock.now, budget: SMALL });
    const hooks = createBudgetHooks({ budget: stores.budget, now: () => clock.now });
    h = harness({ acquire: hooks.acquire, onRateLimit: hooks.onRateLimit, now: () => clock.now });
    h.pool.intercept({ path: '/api/v1/desks/', method: 'GET' }).reply(200, envelope([]), {
      headers: {
        'x-ratelimit-limit': '10',
        'x-ratelimit-remaining': '2',
        'x-ratelimit-reset': String((T0 + 50_000) / 1000),
      },
    });
    await h.client.listDesks({ priority: 'background' });
    await hooks.settled();
    // The platform's 8 used, plus this very request once more: it was taken in the
    // millisecond the headers were read, and is rather counted twice than missed.
    expect((await stores.budget.usage()).minute).toBe(9);
    const refused = await rejectionOf(h.client.listDesks({ priority: 'background' }));
    expect(refused).toBeInstanceOf(BudgetDeferredError);
    expect(h.calls()).toHaveLength(1);
  });
});
