/**
 * The rules both rate-budget backends apply, kept in one place so the Lua script and the
 * in-memory twin cannot drift apart on the parts that are plain arithmetic.
 */
import { InvalidStoreArgumentError } from './errors.ts';
import type { BudgetPriority, RateBudgetLimits, RateLimitObservation } from './types.ts';
import { DEFAULT_RATE_BUDGET_LIMITS } from './types.ts';

/** The rolling minute, in ms. */
export const MINUTE_MS = 60_000;
/** The rolling hour, in ms. */
export const HOUR_MS = 3_600_000;

/** The two windows a budget counts in. */
export type BudgetWindow = 'minute' | 'hour';

/** Fills in the defaults and refuses limits that cannot describe a budget. */
export function resolveBudgetLimits(limits: Partial<RateBudgetLimits> = {}): RateBudgetLimits {
  const resolved = { ...DEFAULT_RATE_BUDGET_LIMITS, ...limits };
  for (const name of ['perMinute', 'perHour'] as const) {
    if (!Number.isSafeInteger(resolved[name]) || resolved[name] <= 0) {
      throw new InvalidStoreArgumentError(`budget ${name} must be a positive whole number`);
    }
  }
  if (!(resolved.reserve >= 0 && resolved.reserve < 1)) {
    throw new InvalidStoreArgumentError('budget reserve must be a fraction from 0 up to (not) 1');
  }
  return resolved;
}

/** What a take of one priority may add to each window. */
export interface Allowance {
  /** Requests of every priority in the rolling minute and hour, this one included. */
  minute: number;
  hour: number;
  /** Background work's own requests, for background takes only. */
  own?: { minute: number; hour: number };
}

/**
 * How many requests a take of a priority finds room for in each window. People may use all of
 * it. Background work never makes more than (1 - reserve) of a window itself, and never takes
 * its last reserve / 4 whoever spent the rest: people's requests, however many, never wait
 * behind the poller, while the room people leave unused is not left idle (a reserve that only
 * counted the total would cap the poller at 80% minus what people spent).
 */
export function allowance(limits: RateBudgetLimits, priority: BudgetPriority): Allowance {
  if (priority === 'interactive') return { minute: limits.perMinute, hour: limits.perHour };
  const room = (limit: number) => Math.max(1, Math.ceil((limit * limits.reserve) / 4));
  return {
    minute: limits.perMinute - room(limits.perMinute),
    hour: limits.perHour - room(limits.perHour),
    own: {
      minute: Math.floor(limits.perMinute * (1 - limits.reserve)),
      hour: Math.floor(limits.perHour * (1 - limits.reserve)),
    },
  };
}

/**
 * Which window a response's headers describe. The platform reports the window closest to
 * exhaustion; its limit names it when the limits are the configured ones, and otherwise a reset
 * within a minute can only be the minute's.
 */
export function observedWindow(
  observation: RateLimitObservation,
  limits: RateBudgetLimits,
): BudgetWindow {
  if (observation.limit === limits.perMinute && limits.perMinute !== limits.perHour) {
    return 'minute';
  }
  if (observation.limit === limits.perHour) return 'hour';
  return observation.resetAt - observation.observedAt <= MINUTE_MS ? 'minute' : 'hour';
}

/** Whether an observation is worth handing to a backend at all. */
export function isUsableObservation(observation: RateLimitObservation): boolean {
  return (
    Number.isFinite(observation.limit) &&
    Number.isFinite(observation.remaining) &&
    Number.isSafeInteger(Math.floor(observation.resetAt)) &&
    Number.isSafeInteger(Math.floor(observation.observedAt)) &&
    observation.remaining >= 0
  );
}
