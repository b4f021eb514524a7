/**
 * The shared rate budget as the service-desk client's `acquire` and `onRateLimit` hooks. An
 * interactive call (a person waiting) waits briefly for room; a background call (the poller)
 * that finds none is deferred with `BudgetDeferredError`, which the poller understands. Every
 * response's X-RateLimit-* headers are adopted, and a 429 holds every replica back until the
 * reset.
 */
import { type Sleep, sleep as systemSleep } from '../clock.ts';
import type { AcquireHook, RateLimitListener } from '../servicedesk/index.ts';
import { StoreError } from '../store/errors.ts';
import type { RateBudget } from '../store/types.ts';
import { BudgetDeferredError, BudgetExhaustedError } from './errors.ts';
import { MIRROR_TUNING } from './mirror-tuning.ts';

/** A pino-compatible logger. */
export interface HookLogger {
  warn(obj: object, msg?: string): void;
}

/** Options of `createBudgetHooks`. */
export interface BudgetHooksOptions {
  budget: RateBudget;
  /** Longest an interactive call waits for room before it is refused (default 10 s). */
  maxInteractiveWaitMs?: number;
  /** How long background work waits when the budget itself cannot be reached (default 5 s). */
  unreachableRetryMs?: number;
  logger?: HookLogger;
  /** Told each time an interactive call had to wait for room (metrics, benchmarks). */
  onInteractiveDelayed?: (waitedMs: number) => void;
  now?: () => number;
  /** Waits; must reject when the signal aborts. */
  sleep?: Sleep;
}

/** The two client hooks, and a way to wait for the header observations still being stored. */
export interface BudgetHooks {
  acquire: AcquireHook;
  onRateLimit: RateLimitListener;
  /** Resolves once every observation handed to the budget so far is stored (tests). */
  settled(): Promise<void>;
}

// A floor on each wait: replicas racing for one freed slot must not spin.
const MIN_WAIT_MS = MIRROR_TUNING.budget.minWaitMs.value;
const MAX_ROUNDS = 1_000;

/** Builds the hooks that put every request of a client inside the shared budget. */
export function createBudgetHooks(options: BudgetHooksOptions): BudgetHooks {
  const { budget } = options;
  const maxWaitMs = options.maxInteractiveWaitMs ?? MIRROR_TUNING.budget.maxInteractiveWaitMs.value;
  const unreachableRetryMs =
    options.unreachableRetryMs ?? MIRROR_TUNING.budget.unreachableRetryMs.value;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? systemSleep;
  const pending = new Set<Promise<void>>();

  const acquire: AcquireHook = async (ticket) => {
    const started = now();
    for (let round = 0; round < MAX_ROUNDS; round++) {
      let grant: Awaited<ReturnType<RateBudget['take']>>;
      try {
        grant = await budget.take(ticket.priority);
      } catch (error) {
        if (!(error instanceof StoreError)) throw error;
        // Without the shared count a person is still served (the platform's own 429 remains
        // the hard limit); background work waits for the budget to come back.
        options.logger?.warn(
          { err: error, operation: ticket.operation, priority: ticket.priority },
          'rate budget unreachable',
        );
        if (ticket.priority === 'interactive') return;
        throw new BudgetDeferredError(ticket.operation, now() + unreachableRetryMs, 'window');
      }
      if (grant.granted) {
        if (round > 0) options.onInteractiveDelayed?.(now() - started);
        return;
      }
      if (ticket.priority === 'background') {
        throw new BudgetDeferredError(ticket.operation, grant.retryAt, grant.reason);
      }
      const waitMs = Math.max(MIN_WAIT_MS, grant.retryAt - now());
      if (now() + waitMs - started > maxWaitMs) {
        throw new BudgetExhaustedError(ticket.operation, grant.retryAt, now() - started);
      }
      await sleep(waitMs, ticket.signal);
    }
    throw new BudgetExhaustedError(ticket.operation, now(), now() - started);
  };

  const onRateLimit: RateLimitListener = (state, response) => {
    const stored = budget
      .observe(state)
      .then(() => (response.status === 429 ? budget.backOff(state.resetAt) : undefined))
      .catch((error: unknown) => {
        options.logger?.warn({ err: error }, 'rate-limit headers could not be stored');
      })
      .finally(() => pending.delete(stored));
    pending.add(stored);
  };

  return {
    acquire,
    onRateLimit,
    async settled() {
      await Promise.all([...pending]);
    },
  };
}
